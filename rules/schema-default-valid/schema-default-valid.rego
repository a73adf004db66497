# METADATA
# title: Schema defaults match their schema
# description: |
#   The `default` of a schema, parameter or header is a value its schema
#   accepts. A server applies the default when the client sends nothing,
#   and generated clients and forms pre-fill it: a default of the wrong
#   type, outside the enum or beyond a bound is a value the API would
#   reject if a client sent it, so behaviour without the field is
#   undefined.
#
#   Defaults are validated as examples are (see `schema-example-valid`):
#   with a JSON Schema validator, the named schemas the schema references
#   through local `$ref`s included, and erring on the side of silence where
#   the dialects differ (references to other files, `format`, a null in
#   Swagger 2.0 and OpenAPI 3.0, `oneOf` matched twice, JSON Schema
#   2020-12 keywords). Every schema is checked once, named or inline, and
#   in Swagger 2.0 also the parameters and headers that carry `default`
#   themselves. The rule reports on `default`.
#
#   ```yaml
#   limit:
#     type: integer
#     minimum: 1
#     maximum: 100
#     default: 500     # bad: above the maximum
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas3-valid-schema-example", "spectral:oas2-valid-schema-example"]
#   howToFix: |
#     Correct the default to a value the schema accepts, or drop it if
#     there is no sensible default.
package specgate.rules["schema-default-valid"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["default"]), msg) if {
	some s in correctness.having("default")
	errors := correctness.example_errors(s.node["default"], correctness.schema_part(s.node))
	count(errors) > 0
	msg := sprintf("the default %s of %s does not match its schema: %s", [_shown(s.node["default"]), correctness.describe(s), correctness.errors_text(errors)])
}

_shown(v) := json.marshal(v) if count(json.marshal(v)) <= 40

else := "value"
