# METADATA
# title: Composition members are distinct and selectable
# description: |
#   The members of an `allOf`, `anyOf` or `oneOf` each add something, and
#   the members of a `oneOf` exclude each other. `oneOf` accepts a value
#   that matches exactly one member: a member repeated, an empty member
#   (`{}` matches everything) or two members that accept the same values
#   make such values fail, so the schema rejects data it was meant to
#   accept. In `allOf` and `anyOf` the same members are dead weight that
#   readers must compare by hand. A `discriminator` picks a member by
#   name: an inline member has none, so it can never be picked.
#
#   Reported: a member that is an empty schema; a member written exactly
#   like an earlier one; in a `oneOf`, two members (local `$ref`s
#   followed) that both admit some value, judged only where that is
#   certain: both list the value in `enum` or `const`, or both constrain
#   nothing but `type` (and `nullable`) and share a type (`integer` is
#   also a `number`); and an inline member beside a `discriminator`
#   unless its `mapping` points at it. Every schema is checked once, where
#   it is written. The rule reports on the member, or on `oneOf` for two
#   overlapping members.
#
#   ```yaml
#   Id:
#     oneOf:                     # bad: "7" style values are strings twice
#       - {type: string}
#       - {type: string, description: A legacy id}
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["redocly:no-illogical-composition-keywords"]
#   howToFix: |
#     Remove empty and repeated members; make the members of a `oneOf`
#     exclusive (different types, different `enum` values, or a required
#     property only one of them has), or use `anyOf` when a value may match
#     several; give members selected by a `discriminator` a name under
#     `components.schemas` and `$ref` them.
package specgate.rules["no-illogical-composition"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.util

_keywords := ["allOf", "anyOf", "oneOf"]

violations contains util.violation(array.concat(s.source, [k, j]), msg) if {
	some [k, s, j, i] in _repeats
	i < 0
	msg := sprintf("%s member %d of %s is an empty schema, which %s", [k, j, correctness.describe(s), _empty_effect[k]])
}

_empty_effect := {
	"allOf": "adds nothing",
	"anyOf": "matches every value, so the anyOf accepts anything",
	"oneOf": "matches every value, so the oneOf rejects every value another member matches",
}

violations contains util.violation(array.concat(s.source, [k, j]), msg) if {
	some [k, s, j, i] in _repeats
	i >= 0
	msg := sprintf("%s member %d of %s repeats member %d%s", [k, j, correctness.describe(s), i, _repeat_effect[k]])
}

# _repeats are [keyword, schema, j, i] for each member j of a composition
# that equals an earlier member i, or, with i negative, an empty schema
# ({} or true, which accept every value). One pass over each composition
# finds both: specgate.repeats of its members after the two empty schemas
# pairs each member with the first of them it equals.
_repeats contains [k, s, j - 2, i - 2] if {
	some k in _keywords
	some s in object.get(input.schemasWith, k, [])
	some [j, i] in specgate.repeats(array.concat([{}, true], s.node[k]))
}

_repeat_effect := {
	"allOf": "",
	"anyOf": "",
	"oneOf": ", so every value it matches matches twice and the oneOf rejects it",
}

violations contains util.violation(array.concat(s.source, ["oneOf"]), msg) if {
	some s in object.get(input.schemasWith, "oneOf", [])
	plain := {i: m | some i, written in s.node.oneOf; m := health.deref(written); _plain(m)}
	count(plain) > 1
	some [i, j] in _candidates(plain)
	s.node.oneOf[i] != s.node.oneOf[j]
	reason := _overlap(plain[i], plain[j])
	msg := sprintf("oneOf members %d and %d of %s both accept %s, so such a value matches two members and the oneOf rejects it", [i, j, correctness.describe(s), reason])
}

violations contains util.violation(array.concat(s.source, [k, i]), msg) if {
	some k in ["anyOf", "oneOf"]
	some s in object.get(input.schemasWith, "discriminator", [])
	some i, m in object.get(s.node, k, [])
	is_object(m)
	not health.is_ref(m)
	not _mapped(s.node.discriminator, k, i)
	msg := sprintf("%s member %d of %s is inline, so the discriminator cannot select it", [k, i, correctness.describe(s)])
}

_mapped(d, k, i) if {
	some target in object.get(d, "mapping", {})
	endswith(target, sprintf("/%s/%d", [k, i]))
}

# _candidates(plain) are the pairs [i, j], i < j, of members that may
# overlap, found by grouping rather than by trying every pair (an enum
# written as a oneOf of a hundred const members would be ten thousand
# pairs): members listing the same value meet under ["v", value]; a member
# that only has a type meets, under ["k", type], the members of that type
# and the valued members with a value of that kind. Members that meet only
# through their values' kinds (two valued members) are not paired. The
# pairs are a superset: _overlap decides.
_candidates(plain) := {[min([a, b]), max([a, b])] |
	some key, entries in specgate.group([[key, [i, role]] | some i, m in plain; some [key, role] in _keys(m)])
	count(entries) > 1
	some [a, role] in entries
	_leads(key, role)
	some [b, _] in entries
	a != b
}

_keys(m) := [[key, "v"] |
	some v in values
	some key in array.concat([["v", v]], [["k", k] | some k in _kinds(v)])
] if values := _values(m)

else := [[["k", k], "t"] | some k in _type_keys(correctness.declared_types(m))] if _only_type(m)

_kinds(v) := ["integer", "number"] if correctness.kind(v) == "integer"

else := [correctness.kind(v)]

_type_keys(types) := types | {"number"} if "integer" in types

else := types

_leads(["v", _], "v")

_leads(["k", _], "t")

# _overlap(a, b) names values two schemas both accept, where certain.
_overlap(a, b) := sprintf("the value %s", [json.marshal(v)]) if {
	_plain(a)
	_plain(b)
	va := _values(a)
	vb := _values(b)
	v := min({x | some x in va; x in vb})
} else := sprintf("the value %s", [json.marshal(v)]) if {
	_plain(a)
	_plain(b)
	[values, other] := _valued_and_typed(a, b)
	v := min({x | some x in values; correctness.fits_types(x, correctness.declared_types(other))})
} else := concat(" and ", [_type_word(t) | some t in sort(shared)]) if {
	_only_type(a)
	_only_type(b)
	shared := _shared_types(correctness.declared_types(a), correctness.declared_types(b))
	count(shared) > 0
}

_valued_and_typed(a, b) := [_values(a), b] if {
	_values(a)
	_only_type(b)
}

_valued_and_typed(a, b) := [_values(b), a] if {
	_values(b)
	_only_type(a)
}

_values(s) := s.enum if is_array(s.enum)

else := [s.const] if "const" in object.keys(s)

# _plain holds for a schema whose keywords all either fix its values
# (type, enum, const, nullable) or only annotate it.
_plain(s) if {
	is_object(s)
	every key, _ in s {
		_annotation_or_value(key)
	}
}

_only_type(s) if {
	_plain(s)
	"type" in object.keys(s)
	not "enum" in object.keys(s)
	not "const" in object.keys(s)
}

_annotation_or_value(key) if key in {
	"type", "enum", "const", "nullable",
	"title", "description", "default", "example", "examples", "deprecated",
	"readOnly", "writeOnly", "externalDocs", "xml", "$comment", "$id", "$anchor", "$schema",
}

_annotation_or_value(key) if startswith(key, "x-")

_type_word("null") := "null"

_type_word(t) := sprintf("every %s", [t]) if t != "null"

_shared_types(ta, tb) := (ta & tb) | _integer_in_number(ta, tb) | _integer_in_number(tb, ta)

_integer_in_number(ta, tb) := {"integer"} if {
	"integer" in ta
	"number" in tb
} else := set()
