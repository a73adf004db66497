# METADATA
# title: Schema bounds can be met
# description: |
#   A schema's lower bounds do not exceed its upper bounds: `minimum` (or
#   `exclusiveMinimum`) against `maximum` (or `exclusiveMaximum`),
#   `minLength` against `maxLength`, `minItems` against `maxItems`,
#   `minProperties` against `maxProperties` and `minContains` against
#   `maxContains`; and `multipleOf` is greater than zero. A schema whose
#   bounds cross accepts no value at all: every request or response that
#   carries the field is rejected, which is never what was meant (usually
#   two bounds swapped, or one changed without the other).
#
#   Bounds are read as each version writes them: in Swagger 2.0 and
#   OpenAPI 3.0, `exclusiveMinimum: true` makes `minimum` exclusive; from
#   OpenAPI 3.1, `exclusiveMinimum` is itself the bound. Equal bounds are
#   fine unless one of them is exclusive. Every schema is checked once,
#   named or inline, and in Swagger 2.0 also parameters and headers. The
#   rule reports on the upper bound (or on `multipleOf`).
#
#   ```yaml
#   quantity:
#     type: integer
#     minimum: 10
#     maximum: 1     # bad: no number is >= 10 and <= 1
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas-schema-check"]
#   howToFix: |
#     Swap or correct the bounds so that some value satisfies both, and
#     give `multipleOf` a positive value.
package specgate.rules["schema-bounds-consistent"]

import data.specgate.lib.correctness
import data.specgate.lib.util

_pairs := [
	["minLength", "maxLength", "string length"],
	["minItems", "maxItems", "number of items"],
	["minProperties", "maxProperties", "number of properties"],
	["minContains", "maxContains", "number of matching items"],
]

violations contains util.violation(array.concat(s.source, [hi]), msg) if {
	some [lo, hi, what] in _pairs
	some s in correctness.having(hi)
	is_number(s.node[lo])
	is_number(s.node[hi])
	s.node[lo] > s.node[hi]
	msg := sprintf("%s has %s %v above %s %v: no %s can satisfy both", [correctness.describe(s), lo, s.node[lo], hi, s.node[hi], what])
}

violations contains util.violation(array.concat(s.source, [upper.key]), msg) if {
	some key in ["maximum", "exclusiveMaximum"]
	some s in correctness.having(key)
	some upper in _uppers(s.node)
	upper.key == key
	some lower in _lowers(s.node)
	_empty(lower, upper)
	msg := sprintf("%s allows no number: %s %v and %s %v cannot both hold", [correctness.describe(s), lower.key, lower.value, upper.key, upper.value])
}

violations contains util.violation(array.concat(s.source, ["multipleOf"]), msg) if {
	some s in correctness.having("multipleOf")
	is_number(s.node.multipleOf)
	s.node.multipleOf <= 0
	msg := sprintf("%s has multipleOf %v; it must be greater than 0", [correctness.describe(s), s.node.multipleOf])
}

# _lowers and _uppers are the numeric bounds of a schema, each with its
# key, value and whether it excludes the value itself.
_lowers(node) := _bounds(node, "minimum", "exclusiveMinimum")

_uppers(node) := _bounds(node, "maximum", "exclusiveMaximum")

_bounds(node, inclusive, exclusive) := {{"key": inclusive, "value": node[inclusive], "exclusive": object.get(node, exclusive, false) == true} |
	is_number(node[inclusive])
} | {{"key": exclusive, "value": node[exclusive], "exclusive": true} |
	is_number(node[exclusive])
}

_empty(lower, upper) if lower.value > upper.value

_empty(lower, upper) if {
	lower.value == upper.value
	true in {lower.exclusive, upper.exclusive}
}
