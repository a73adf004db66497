# METADATA
# title: Discriminator properties are defined
# description: |
#   The property a `discriminator` names is defined where values are read
#   from. The discriminator tells which schema a value follows by the value
#   of one property; if the schemas do not define that property, clients
#   and code generators cannot select a schema, and serializers drop the
#   property.
#
#   In OpenAPI 3, `discriminator.propertyName` must be a property of every
#   `oneOf`/`anyOf` alternative of the schema, or, for a schema without
#   alternatives (the base of an `allOf` hierarchy), of the schema itself.
#   In Swagger 2.0, `discriminator` names a property the schema must define
#   and, as the specification requires, list in `required`. Properties
#   count when declared in `properties` of the schema or of what it is
#   composed of (local `$ref`s followed, three levels deep); alternatives
#   that cannot be read completely (a `$ref` to another file) are not
#   judged. The rule reports on the property name.
#
#   ```yaml
#   Pet:
#     oneOf:
#       - $ref: '#/components/schemas/Cat'
#       - $ref: '#/components/schemas/Dog'   # bad: Dog has no petType
#     discriminator:
#       propertyName: petType
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas2-discriminator", "vacuum:oas2-discriminator"]
#   howToFix: |
#     Add the property (usually a string with an enum or const of the
#     value that selects the schema) to every alternative, or to the base
#     schema of the hierarchy, and list it in `required`; or correct
#     `propertyName` to the property the schemas really use.
package specgate.rules["discriminator-property-defined"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["discriminator", "propertyName"]), msg) if {
	not util.is_oas2
	some s in correctness.having("discriminator")
	name := s.node.discriminator.propertyName
	is_string(name)
	some [i, keyword, alternative] in _alternatives(s.node)
	health.resolved(alternative)
	target := health.deref(alternative)
	# Nearly every member defines the property: that test first.
	not name in correctness.family_properties(target)
	correctness.family_complete(target)
	msg := sprintf("the discriminator of %s reads property %q, which %s member %d (%s) does not define", [correctness.describe(s), name, keyword, i, _name(alternative)])
}

violations contains util.violation(array.concat(s.source, ["discriminator", "propertyName"]), msg) if {
	not util.is_oas2
	some s in correctness.having("discriminator")
	name := s.node.discriminator.propertyName
	is_string(name)
	count(_alternatives(s.node)) == 0
	correctness.family_complete(s.node)
	not name in correctness.family_properties(s.node)
	msg := sprintf("the discriminator of %s reads property %q, which the schema does not define", [correctness.describe(s), name])
}

violations contains util.violation(array.concat(s.source, ["discriminator"]), msg) if {
	util.is_oas2
	some s in correctness.having("discriminator")
	name := s.node.discriminator
	is_string(name)
	correctness.family_complete(s.node)
	not name in correctness.family_properties(s.node)
	msg := sprintf("the discriminator of %s names property %q, which the schema does not define", [correctness.describe(s), name])
}

violations contains util.violation(array.concat(s.source, ["discriminator"]), msg) if {
	util.is_oas2
	some s in correctness.having("discriminator")
	name := s.node.discriminator
	is_string(name)
	name in correctness.family_properties(s.node)
	correctness.family_complete(s.node)
	not name in correctness.allof_required(s.node)
	msg := sprintf("the discriminator property %q of %s is not in required; Swagger 2.0 requires it to be", [name, correctness.describe(s)])
}

_alternatives(node) := [[i, keyword, m] |
	some keyword in ["oneOf", "anyOf"]
	some i, m in object.get(node, keyword, [])
]

_name(m) := sprintf("%q", [m["$ref"]]) if health.is_ref(m)

else := "inline"
