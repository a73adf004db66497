# METADATA
# title: Request numbers have a minimum and a maximum
# description: |
#   Every integer and number the API receives has both a lower bound
#   (`minimum`, or a numeric `exclusiveMinimum`) and an upper bound
#   (`maximum`, or a numeric `exclusiveMaximum`), or takes its values from
#   an `enum` or `const`. Unbounded numbers are how a `limit=1000000`
#   dumps a table, a negative quantity credits an account, or a huge
#   `retries` count keeps a worker busy (OWASP API4:2023 Unrestricted
#   Resource Consumption, API6:2023 Unrestricted Access to Sensitive
#   Business Flows).
#
#   Only the request side is checked, as the risk is about input: schemas
#   that the parameters and request bodies of operations under `paths`
#   reach, through properties, items, compositions and `$ref`s, and in
#   Swagger 2.0 the non-body parameters themselves. Response-only and
#   unused schemas, `readOnly` properties, and schemas under `not`/`if`
#   are not. In OpenAPI 3.0 and Swagger 2.0 a boolean `exclusiveMinimum`
#   only qualifies `minimum` and bounds nothing alone. Only schemas that
#   declare `type: integer` or `type: number` are judged; `format: int32`
#   is not a bound. The rule reports on `type` and says which bound is
#   missing.
#
#   ```yaml
#   limit:
#     type: integer               # bad
#   limit:
#     type: integer
#     minimum: 1
#     maximum: 100                # good
#   ```
# custom:
#   category: Schemas
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-integer-limit"]
#   howToFix: |
#     Add the `minimum` and `maximum` the API accepts (0 or 1 for counts
#     and page sizes, a business limit above), and enforce them.
package specgate.rules["numeric-bounds"]

import data.specgate.lib.security
import data.specgate.lib.util

# violations is a list, built in one comprehension, where a set would hash
# and order each finding: a large API receives thousands of unbounded
# numbers (the linter drops repeats).
violations := [util.violation(array.concat(v.source, ["type"]), msg) |
	some t in ["integer", "number"]
	some v in specgate.lacking(security.received_of[t], ["enum", "const"])
	missing := _missing(v.node)
	msg := sprintf("%s is %s without %s", [security.label(v), _article(t), missing])
]

_missing(node) := "minimum or maximum" if {
	not _lower(node)
	not _upper(node)
} else := "minimum" if {
	not _lower(node)
} else := "maximum" if {
	not _upper(node)
}

_lower(node) if is_number(node.minimum)

_lower(node) if is_number(node.exclusiveMinimum)

_upper(node) if is_number(node.maximum)

_upper(node) if is_number(node.exclusiveMaximum)

_article("integer") := "an integer"

_article("number") := "a number"
