# METADATA
# title: allOf members agree on types
# description: |
#   The members of an `allOf` do not give contradictory types, neither
#   for the whole value nor for a property that several of them declare.
#   A value must match every member of an `allOf`: if one says `type:
#   string` and another `type: object`, no value matches and every payload
#   is rejected; if one declares `id` as an integer and another as a
#   string, the property can never be sent. This usually comes from
#   extending a shared schema and redefining a field, where a new schema
#   (or `oneOf`) was meant.
#
#   Types are compared as JSON Schema does: an integer is also a number,
#   and `nullable: true` (OpenAPI 3.0) or `"null"` in a type list adds
#   null. Members and properties behind local `$ref`s are followed one
#   level; members or properties without a `type` are not judged. Every
#   schema with an `allOf` is checked once. The rule reports on the `type`
#   of the member (or of the property) that contradicts an earlier one.
#
#   ```yaml
#   Admin:
#     allOf:
#       - $ref: '#/components/schemas/User'    # id: {type: integer}
#       - type: object
#         properties:
#           id: {type: string}                 # bad: never both
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:allof-conflicts"]
#   howToFix: |
#     Give the property the same type in every member, remove the
#     redefinition from the extending schema, or, if the schemas are
#     alternatives rather than parts of one value, use `oneOf`.
package specgate.rules["allof-type-conflict"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(_type_path(s, j, []), msg) if {
	some s in _comparable
	# Members that give one type alike (nearly every allOf: an object
	# extending an object) cannot be disjoint: only the lists with two
	# different types are compared pair by pair.
	count({t | some m in s.node.allOf; t := health.deref(m).type}) > 1
	members := _members(s.node)
	some [j, later] in members
	some [i, earlier] in members
	i < j
	_disjoint(later, earlier)
	msg := sprintf("allOf member %d of %s is of type %s, but member %d is of type %s: no value can be both", [j, correctness.describe(s), correctness.types_text(later), i, correctness.types_text(earlier)])
}

violations contains util.violation(_type_path(s, j, ["properties", name]), msg) if {
	some s in _comparable
	# Members that declare properties: most allOf lists pair a $ref with
	# a member that only describes it (every allOf of Amazon's specs), and
	# comparing the keys of the referenced schema with none was most of
	# the rule's time there.
	props := [[j, p] |
		some j, m in s.node.allOf
		p := object.get(health.deref(m), "properties", {})
		count(p) > 0
	]
	count(props) > 1
	some [j, pj] in props
	some [i, pi] in props
	i < j
	# Names both declare, found with one set operation per pair.
	some name in object.keys(pj) & object.keys(pi)
	later := _types(health.deref(pj[name]))
	earlier := _types(health.deref(pi[name]))
	_disjoint(later, earlier)
	msg := sprintf("property %q is of type %s in allOf member %d of %s, but of type %s in member %d: it can never be sent", [name, correctness.types_text(later), j, correctness.describe(s), correctness.types_text(earlier), i])
}

# _comparable are the schemas with an allOf of which two members may give
# a type or properties: a $ref, or a member written with either. Most
# allOf lists pair a $ref with a member that only describes it (every
# allOf of some generated specs); specgate.members_with
# leaves those out in one call, where reading each cost more than the
# rest of the rule.
_comparable := specgate.members_with(correctness.having("allOf"), "allOf", ["$ref", "type", "properties"], 2)

# _members are [index, types] of the typed allOf members, dereferenced.
_members(node) := [[j, types] |
	some j, m in node.allOf
	types := _types(health.deref(m))
]

_types(schema) := types if {
	types := correctness.declared_types(schema)
	count(types) > 0
}

_disjoint(a, b) if {
	count(a & b) == 0
	not _integer_and_number(a, b)
	not _integer_and_number(b, a)
}

_integer_and_number(a, b) if {
	"integer" in a
	"number" in b
}

# _type_path is where the contradicting type is written: in the member
# itself when it is inline, else at the member's $ref.
_type_path(s, j, rest) := array.concat(array.concat(s.source, ["allOf", j]), array.concat(rest, ["type"])) if {
	not health.is_ref(s.node.allOf[j])
	_written(s.node.allOf[j], rest)
} else := array.concat(s.source, ["allOf", j])

_written(member, []) if "type" in object.keys(member)

_written(member, ["properties", name]) if "type" in object.keys(member.properties[name])
