# METADATA
# title: Schema defaults and examples match their schema
# description: |
#   The `default` and the `examples` of a schema are values the schema
#   accepts. A default it rejects is what consumers get when a producer
#   leaves the field out, and examples are copied into documentation and
#   mocks: one that does not validate teaches the wrong message shape.
#
#   Every schema of the document is checked (components, payloads, headers
#   and the schemas inside them), when it is written in a JSON Schema
#   format (AsyncAPI's own or JSON Schema; payloads in OpenAPI, Avro, RAML
#   or Protobuf formats are left alone), with its `$ref`s into
#   `components` resolved; a null value of a schema marked `nullable: true`
#   (an OpenAPI schema reused by an OpenAPI-format payload) is accepted. The
#   rule reports on the `default` or on the example, with the first error.
#
#   ```yaml
#   components:
#     schemas:
#       brightness:
#         type: integer
#         minimum: 0
#         maximum: 100
#         default: 150          # bad: above the maximum
#         examples: [0, 50]     # good
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-schema-default", "spectral:asyncapi-schema-examples", "spectral:asyncapi-payload-default", "spectral:asyncapi-payload-examples"]
#   howToFix: |
#     Correct the default or example so that it satisfies the schema, or
#     correct the schema if the value shows what is really sent.
package specgate.rules["asyncapi-schema-examples"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["default"]), msg) if {
	some s in _schemas
	"default" in object.keys(s.node)
	not _openapi_null(s.node, s.node["default"])
	err := asyncapi.validate(s.node["default"], s.node)
	msg := sprintf("the default of %s does not match it: %s", [_label(s), err])
}

violations contains util.violation(array.concat(s.source, ["examples", i]), msg) if {
	some s in _schemas
	some i, example in s.node.examples
	not _openapi_null(s.node, example)
	err := asyncapi.validate(example, s.node)
	msg := sprintf("example %d of %s does not match it: %s", [i, _label(s), err])
}

# _schemas are the schemas with values to check that are not inside a
# payload written in another schema format.
_schemas contains s if {
	some s in input.schemas
	_has_values(s.node)
	not _foreign(s.source)
}

_has_values(node) if "default" in object.keys(node)

_has_values(node) if is_array(node.examples)

_foreign(source) if {
	some m in input.messages
	not asyncapi.json_schema_format(asyncapi.schema_format(m))
	p := m.payloadSource
	count(source) >= count(p)
	array.slice(source, 0, count(p)) == p
}

# A component schema may be an OpenAPI schema used by a payload in the
# OpenAPI format, where `nullable: true` admits null; JSON Schema does not
# know the keyword, so null is not checked there.
_openapi_null(node, null) if node.nullable == true

_label(s) := sprintf("schema %q", [s.name]) if s.name != ""

_label(s) := sprintf("the schema at %s", [asyncapi.pointer(s.source)]) if s.name == ""
