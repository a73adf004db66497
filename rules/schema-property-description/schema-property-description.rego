# METADATA
# title: Schema properties have a description
# description: |
#   Every property of every schema has a `description`. Property names say
#   little on their own (`status`, `amount`, `type`): the description says
#   what the value means, its unit, and when it is absent. Documentation
#   shows it beside each field and generated clients turn it into doc
#   comments.
#
#   Every schema of the document is checked once, named or inline. A
#   property whose schema is a `$ref` is not reported: in OpenAPI 3.0 and
#   Swagger 2.0 a description beside a `$ref` is ignored, so the referenced
#   schema carries it (`schema-description`). A boolean property schema is
#   not reported either. A description made only of whitespace counts as
#   missing. The rule reports on the property's key.
#
#   ```yaml
#   Pet:
#     type: object
#     properties:
#       status: {type: string, enum: [available, sold]}        # bad
#       status:
#         description: Whether the pet can still be adopted.   # good
#         type: string
#         enum: [available, sold]
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `description` to the property: what the value means, its unit
#     or format where the schema does not say it, and what its absence
#     means.
package specgate.rules["schema-property-description"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(array.concat(schema.source, ["properties", name]), msg) if {
	some schema in input.schemas
	is_object(schema.node.properties)
	some name, prop in schema.node.properties
	is_object(prop)
	not "$ref" in object.keys(prop)
	style.blank(object.get(prop, "description", ""))
	msg := sprintf("property %q%s has no description", [name, _of(schema)])
}

_of(schema) := sprintf(" of schema %s", [schema.name]) if schema.name != ""

else := sprintf(" in %s", [owner]) if {
	owner := style.schema_owner(schema.source)
	owner != ""
} else := ""
