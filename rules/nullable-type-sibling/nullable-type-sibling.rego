# METADATA
# title: nullable stands beside a type (OpenAPI 3.0)
# description: |
#   In OpenAPI 3.0, a schema that says `nullable: true` also says `type`.
#   Since OpenAPI 3.0.3, `nullable` only adds `null` to the values of the
#   `type` written in the same schema: without one it has no effect, and
#   null is still rejected where the author meant to allow it. A common
#   case is `nullable: true` beside `allOf` or `oneOf`, which does not make
#   the composed schema nullable.
#
#   OpenAPI 3.0 documents only: Swagger 2.0 has no `nullable`, and in
#   OpenAPI 3.1 the keyword is gone (see `nullable-oas31`). Every schema is
#   checked once, named or inline. The rule reports on `nullable`.
#
#   ```yaml
#   owner:
#     nullable: true          # bad: no type beside it
#     allOf:
#       - $ref: '#/components/schemas/User'
#   ```
# custom:
#   category: Schemas
#   maturity: Bronze
#   severity: error
#   family: correctness
#   formats: [oas3.0]
#   peers: ["redocly:nullable-type-sibling"]
#   howToFix: |
#     Add the `type` of the values beside `nullable` (`type: object` for
#     the composed object above), or remove `nullable` if null is not
#     allowed.
package specgate.rules["nullable-type-sibling"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["nullable"]), msg) if {
	some s in specgate.lacking(correctness.having("nullable"), ["type"])
	s.node.nullable == true
	msg := sprintf("%s says nullable: true but has no type; in OpenAPI 3.0 nullable only applies to the type written beside it", [correctness.describe(s)])
}
