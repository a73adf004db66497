# METADATA
# title: Compositions combine more than one schema
# description: |
#   An `allOf`, `anyOf` or `oneOf` lists at least one schema, and one that
#   lists a single schema does something the schema alone would not. A
#   schema that is nothing but `allOf: [X]` (or `anyOf`, `oneOf`) means
#   exactly `X`: the wrapper adds a level that readers and generated code
#   must look through (generators often emit an extra type for it). An
#   inline single member beside other keywords can be merged into the
#   schema. An empty list is not a valid schema at all.
#
#   Wrappers that carry meaning are not reported: `allOf: [{$ref: X}]`
#   beside other keywords (before OpenAPI 3.1 the only way to give a
#   reference a description, `nullable` or extra properties), a single
#   `allOf` member that has a `discriminator` (a subtype declaring its
#   parent), and a combination beside a `discriminator`. Every schema is
#   checked once, where it is written. The rule reports on the keyword.
#
#   ```yaml
#   Owner:
#     allOf:                          # bad: the same as $ref: Person
#       - $ref: "#/components/schemas/Person"
#   Address:
#     description: Where a pet lives
#     allOf:                          # bad: merge the member into Address
#       - type: object
#         properties: {city: {type: string}}
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:no-unnecessary-combinator", "redocly:no-illogical-composition-keywords"]
#   howToFix: |
#     Replace a wrapper that holds one schema by that schema or its `$ref`;
#     move the keywords of a single inline member into the schema itself;
#     give an empty list its members or remove it.
package specgate.rules["composition-single-schema"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.util

_keywords := ["allOf", "anyOf", "oneOf"]

violations contains util.violation(array.concat(s.source, [k]), msg) if {
	some k in _keywords
	some s in object.get(input.schemasWith, k, [])
	s.node[k] == []
	msg := sprintf("%s of %s lists no schema; an empty %s is not a valid schema", [k, correctness.describe(s), k])
}

# Nothing but the wrapper: the schema is its member.
violations contains util.violation(array.concat(s.source, [k]), msg) if {
	some k in _keywords
	some s in object.get(input.schemasWith, k, [])
	[member] := s.node[k]
	count(s.node) == 1
	not _subtype(k, member)
	msg := sprintf("%s of %s holds one schema and nothing else; use %s directly", [k, correctness.describe(s), _name(member)])
}

# One inline member beside other keywords it does not repeat: merge it.
violations contains util.violation(array.concat(s.source, [k]), msg) if {
	some k in _keywords
	some s in object.get(input.schemasWith, k, [])
	[member] := s.node[k]
	count(s.node) > 1
	is_object(member)
	not health.is_ref(member)
	not "discriminator" in object.keys(s.node)
	not _subtype(k, member)
	count(object.keys(member) & object.keys(s.node)) == 0
	msg := sprintf("%s of %s holds one inline schema; move its keywords into the schema", [k, correctness.describe(s)])
}

# _subtype holds for an allOf member with a discriminator: the schema
# declares itself a subtype of it, which the member alone would not.
_subtype("allOf", member) if "discriminator" in object.keys(health.deref(member))

_name(member) := sprintf("its $ref %q", [member["$ref"]]) if health.is_ref(member)

else := "the member"
