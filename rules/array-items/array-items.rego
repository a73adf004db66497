# METADATA
# title: Array schemas define their items
# description: |
#   A schema, parameter or header of `type: array` says what its items are
#   with `items`. OpenAPI 3.0 requires `items` whenever the type is
#   `array`, and Swagger 2.0 requires it for array parameters, headers and
#   items; without it, clients and code generators cannot tell what the
#   array holds and fall back to untyped values.
#
#   Swagger 2.0 and OpenAPI 3.0 documents are checked; in OpenAPI 3.1 and
#   later, schemas are JSON Schema 2020-12, where an array without `items`
#   is valid and means an array of anything (the rule does not apply).
#   Every schema is checked once, named or inline. The rule reports on the
#   schema's `type`.
#
#   ```yaml
#   tags:
#     type: array     # bad: what is in the array?
#   ids:
#     type: array
#     items: {type: integer}
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3.0]
#   peers: ["spectral:array-items"]
#   howToFix: |
#     Add `items` with the schema of the elements (`items: {type: string}`,
#     or a `$ref` to a named schema). For an array of anything, write
#     `items: {}`.
package specgate.rules["array-items"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["type"]), msg) if {
	some s in correctness.of_type("array")
	not "items" in object.keys(s.node)
	msg := sprintf("%s is of type array but has no items; say what the array holds", [correctness.describe(s)])
}
