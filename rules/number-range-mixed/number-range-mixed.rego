# METADATA
# title: One lower and one upper bound per number (OpenAPI 3.1+)
# description: |
#   A schema of OpenAPI 3.1 or later does not give both `minimum` and a
#   numeric `exclusiveMinimum`, nor both `maximum` and a numeric
#   `exclusiveMaximum`. In JSON Schema 2020-12 each of them is a bound of
#   its own and both apply, so one of the two is redundant: either it
#   changes nothing, or it silently tightens the range the author meant.
#   Usually a 3.0 schema was converted by adding `exclusiveMinimum: 0`
#   next to `minimum: 0`, where 3.0's `exclusiveMinimum: true` modified
#   `minimum` instead.
#
#   Every schema is checked once, named or inline. The rule reports on the
#   exclusive bound, saying which bound really applies.
#
#   ```yaml
#   price:
#     type: number
#     minimum: 0
#     exclusiveMinimum: 0     # bad: say one of them
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas3.1, oas3.2]
#   peers: ["redocly:no-mixed-number-range-constraints"]
#   howToFix: |
#     Keep the one bound you mean: `exclusiveMinimum: 0` for values above
#     zero, or `minimum: 0` for zero and above.
package specgate.rules["number-range-mixed"]

import data.specgate.lib.correctness
import data.specgate.lib.util

_pairs := [["minimum", "exclusiveMinimum", "lower"], ["maximum", "exclusiveMaximum", "upper"]]

violations contains util.violation(array.concat(s.source, [exclusive]), msg) if {
	some [inclusive, exclusive, side] in _pairs
	some s in correctness.having(exclusive)
	is_number(s.node[exclusive])
	is_number(s.node[inclusive])
	msg := sprintf("%s has both %s %v and %s %v; both apply, so the %s bound is %s: keep one", [correctness.describe(s), inclusive, s.node[inclusive], exclusive, s.node[exclusive], side, _effective(side, s.node[inclusive], s.node[exclusive], inclusive, exclusive)])
}

_effective("lower", inc, exc, inclusive, exclusive) := sprintf("%s %v", [exclusive, exc]) if exc >= inc

else := sprintf("%s %v", [inclusive, inc])

_effective("upper", inc, exc, inclusive, exclusive) := sprintf("%s %v", [exclusive, exc]) if exc <= inc

else := sprintf("%s %v", [inclusive, inc])
