# METADATA
# title: Message examples match the message
# description: |
#   Each example of a message shows a `payload`, `headers` or both, and
#   what it shows is valid against the message's payload and headers
#   schemas. Examples are copied into documentation, mocks and tests; an
#   example that its own schema rejects teaches consumers the wrong
#   message, and one with neither payload nor headers shows nothing.
#
#   Schemas in a JSON Schema format are used (AsyncAPI's own, or JSON
#   Schema; not OpenAPI, Avro, RAML or Protobuf), with their `$ref`s into
#   `components` resolved; headers are not checked when the message has
#   traits, which may add headers. The rule reports on the example when it
#   is empty, and on its `payload` or `headers` with the first error.
#
#   ```yaml
#   payload:
#     type: object
#     properties:
#       lumens: {type: integer, minimum: 0}
#   examples:
#     - payload: {lumens: -3}      # bad: below the minimum
#     - payload: {lumens: 300}     # good
#   ```
# custom:
#   category: Messages
#   maturity: Silver
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-message-examples", "vacuum:asyncapi-message-examples"]
#   howToFix: |
#     Correct the example (or the schema, if the example shows what is
#     really sent); give an empty example a payload or remove it.
package specgate.rules["asyncapi-message-examples"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(m.source, ["examples", i]), msg) if {
	some m in input.messages
	some i, example in object.get(m.node, "examples", [])
	is_object(example)
	not "payload" in object.keys(example)
	not "headers" in object.keys(example)
	msg := sprintf("example %d of %s has neither a payload nor headers", [i, asyncapi.message(m)])
}

violations contains util.violation(array.concat(m.source, ["examples", i, "payload"]), msg) if {
	some m in input.messages
	is_object(m.payload)
	asyncapi.json_schema_format(asyncapi.schema_format(m))
	some i, example in object.get(m.node, "examples", [])
	"payload" in object.keys(example)
	err := asyncapi.validate(example.payload, m.payload)
	msg := sprintf("the payload of example %d of %s does not match the payload schema: %s", [i, asyncapi.message(m), err])
}

violations contains util.violation(array.concat(m.source, ["examples", i, "headers"]), msg) if {
	some m in input.messages
	not "traits" in object.keys(m.node)
	schema := _headers_schema(m.node.headers)
	some i, example in object.get(m.node, "examples", [])
	"headers" in object.keys(example)
	err := asyncapi.validate(example.headers, schema)
	msg := sprintf("the headers of example %d of %s do not match the headers schema: %s", [i, asyncapi.message(m), err])
}

# _headers_schema is a message's headers schema when it is JSON Schema.
_headers_schema(raw) := s if {
	s := asyncapi.deref(raw)
	not "schemaFormat" in object.keys(s)
	is_object(s)
}

_headers_schema(raw) := s if {
	asyncapi.v3
	w := asyncapi.deref(raw)
	asyncapi.json_schema_format(w.schemaFormat)
	s := asyncapi.deref(w.schema)
}
