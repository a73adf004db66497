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
#   missing. The rule reports once per schema: on the property's key when
#   one property lacks a description, on `properties` when several do,
#   naming them.
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

# The helpers take the schema's parts, never the schema itself: OPA keys
# function calls by their arguments, and hashing every nested schema of a
# deep tree would be quadratic.
violations contains util.violation(_path(schema.source, missing), _message(_of(schema.name, array.slice(schema.source, 0, 3)), missing)) if {
	some schema in object.get(input.schemasWith, "properties", [])
	props := schema.node.properties
	is_object(props)
	missing := specgate.blank_members(props, "description") # sorted, without $refs
	count(missing) > 0
}

_path(source, missing) := array.concat(source, ["properties", missing[0]]) if count(missing) == 1

else := array.concat(source, ["properties"])

_message(of, missing) := sprintf("property %q%s has no description", [missing[0], of]) if count(missing) == 1

else := sprintf("properties %s%s have no description", [_list(missing), of])


_list(names) := sprintf("%q and %q", names) if count(names) == 2

else := sprintf("%s and %d others", [concat(", ", [sprintf("%q", [n]) | some n in array.slice(names, 0, 3)]), count(names) - 3]) if count(names) > 4

else := sprintf("%s and %q", [concat(", ", [sprintf("%q", [n]) | some n in array.slice(names, 0, count(names) - 1)]), names[count(names) - 1]])

# _of names where a schema is: a named schema by its name, any other by
# its owner, which the first three segments of its path tell (the
# schemas inside one named schema or one operation share the call).
_of(name, head) := sprintf(" of schema %s", [name]) if name != ""

else := sprintf(" in %s", [owner]) if {
	owner := style.schema_owner(head)
	owner != ""
} else := ""
