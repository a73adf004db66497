# METADATA
# title: Discriminator properties are required
# description: |
#   The property a `discriminator` reads is required in every schema it
#   selects from. When a value may omit it, nothing says which schema the
#   value follows: OpenAPI 3.0 and 3.1 leave that case undefined, and
#   generated clients fail to deserialize such values or pick a schema at
#   random. OpenAPI 3.2 lets an optional discriminating property fall back
#   on `discriminator.defaultMapping`; a schema with one is fine.
#
#   For a schema with `oneOf` or `anyOf` alternatives, each alternative
#   (local `$ref`s followed) must require the property, itself or through
#   its `allOf` members; for the base of an `allOf` hierarchy, the schema
#   itself must. Alternatives that do not define the property at all are
#   left to `discriminator-property-defined`. The rule reports on the
#   property name, once, naming every alternative that does not require it.
#
#   ```yaml
#   Pet:
#     type: object
#     properties:
#       petType: {type: string}
#     discriminator:
#       propertyName: petType     # bad: petType is not required
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas3]
#   peers: ["redocly:spec-discriminator-defaultMapping"]
#   howToFix: |
#     Add the property to `required` in each schema (or in the base schema
#     of the hierarchy). In OpenAPI 3.2, alternatively give the
#     discriminator a `defaultMapping` for values that omit it.
package specgate.rules["discriminator-property-required"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["discriminator", "propertyName"]), msg) if {
	some s in correctness.having("discriminator")
	name := s.node.discriminator.propertyName
	is_string(name)
	not "defaultMapping" in object.keys(s.node.discriminator)
	not name in correctness.allof_required(s.node)
	lacking := [target | some target in _selected(s.node); _lacks(target.node, name)]
	count(lacking) > 0
	msg := sprintf("the discriminator of %s reads property %q, which %s%s", [correctness.describe(s), name, _which(lacking), _fix])
}

# _lacks(node, name) holds when the schema declares the property name
# without requiring it. The cheap test first: nearly every member
# requires the property.
_lacks(node, name) if {
	not name in correctness.allof_required(node)
	correctness.family_complete(node)
	name in correctness.family_properties(node)
}

_selected(node) := [{"node": health.deref(m), "keyword": keyword, "index": i} |
	some keyword in ["oneOf", "anyOf"]
	some i, m in object.get(node, keyword, [])
	health.resolved(m)
] if count(object.get(node, "oneOf", [])) + count(object.get(node, "anyOf", [])) > 0

else := [{"node": node, "keyword": "", "index": 0}]

# _which names the members that do not require the property, once for
# all of them: a discriminator over 40 members that none requires is one
# finding, not 40 at the same place.
_which([t]) := "the schema does not require" if t.keyword == ""

else := sprintf("%s member %d does not require", [t.keyword, t.index])

_which(targets) := concat(" and ", [_members(keyword, targets) | some keyword in ["oneOf", "anyOf"]; _some_of(keyword, targets)]) if count(targets) > 1

_some_of(keyword, targets) if {
	some t in targets
	t.keyword == keyword
}

_members(keyword, targets) := sprintf("%s member %d does not require", [keyword, indices[0]]) if {
	indices := [t.index | some t in targets; t.keyword == keyword]
	count(indices) == 1
} else := sprintf("%s members %s do not require", [keyword, _list([t.index | some t in targets; t.keyword == keyword])])

# _list spells positions: "0 and 1", "0, 1 and 2", "0, 1, 2, 3 and 36 others".
_list(ns) := sprintf("%d and %d", ns) if count(ns) == 2

else := sprintf("%s and %d", [concat(", ", [sprintf("%d", [n]) | some n in array.slice(ns, 0, count(ns) - 1)]), ns[count(ns) - 1]]) if count(ns) <= 5

else := sprintf("%s and %d others", [concat(", ", [sprintf("%d", [n]) | some n in array.slice(ns, 0, 4)]), count(ns) - 4])

_fix := "; require it, or add a defaultMapping" if correctness.is_version("3.2")

else := "; require it so every value says its schema"
