# METADATA
# title: Schemas do not mix array and object keywords
# description: |
#   A schema of `type: object` has no `items`, and a schema of `type:
#   array` has no `properties`. Validators ignore keywords that do not apply
#   to the instance's type, so such a keyword constrains nothing: an object
#   schema with `items` usually meant to be an array of those items, and an
#   array schema with `properties` meant to describe its elements under
#   `items`.
#
#   A schema whose type list (OpenAPI 3.1) includes both `object` and
#   `array` may use both keywords and is not reported. Every schema is
#   checked once, named or inline. The rule reports on the keyword that
#   does not apply.
#
#   ```yaml
#   Pets:
#     type: object
#     items:              # bad: ignored for an object
#       $ref: '#/components/schemas/Pet'
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["redocly:no-schema-type-mismatch"]
#   howToFix: |
#     Correct the type (`type: array` for a list of items), or move the
#     keyword where it belongs: the element's `properties` go under `items`.
package specgate.rules["schema-type-mismatch"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["items"]), msg) if {
	some s in correctness.of_type("object")
	"items" in object.keys(s.node)
	not "array" in correctness.declared_types(s.node)
	msg := sprintf("%s is of type object, so its items are ignored; use type array, or remove items", [correctness.describe(s)])
}

violations contains util.violation(array.concat(s.source, ["properties"]), msg) if {
	some s in correctness.of_type("array")
	"properties" in object.keys(s.node)
	not "object" in correctness.declared_types(s.node)
	msg := sprintf("%s is of type array, so its properties are ignored; describe the elements under items", [correctness.describe(s)])
}
