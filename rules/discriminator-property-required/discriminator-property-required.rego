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
#   property name.
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
	some target in _selected(s.node)
	# The cheap test first: nearly every member requires the property.
	not name in correctness.allof_required(target.node)
	not name in correctness.allof_required(s.node)
	correctness.family_complete(target.node)
	name in correctness.family_properties(target.node)
	msg := sprintf("the discriminator of %s reads property %q, which %s does not require%s", [correctness.describe(s), name, target.text, _fix])
}

# _selected are the schemas the discriminator selects between: the
# alternatives, else the schema itself.
_selected(node) := [{"node": health.deref(m), "text": sprintf("%s member %d", [keyword, i])} |
	some keyword in ["oneOf", "anyOf"]
	some i, m in object.get(node, keyword, [])
	health.resolved(m)
] if count(object.get(node, "oneOf", [])) + count(object.get(node, "anyOf", [])) > 0

else := [{"node": node, "text": "the schema"}]

_fix := "; require it, or add a defaultMapping" if correctness.is_version("3.2")

else := "; require it so every value says its schema"
