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
#   schema carries it (`schema-description`). Nor is a property whose
#   `allOf`, `anyOf` or `oneOf` holds a description or a `$ref`, as in
#   `allOf: [{$ref: …}, {description: …}]`, the usual way to describe a
#   referenced schema in OpenAPI 3.0. A boolean property schema is not
#   reported either. A description made only of whitespace counts as
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

# violations is a list, built in two comprehensions: a large API has
# thousands of undescribed properties, and a set's hashing and ordering of
# each finding cost more than the finding (the linter drops repeats).
violations := array.concat(
	[util.violation(array.concat(schema.source, ["properties", name]), msg) |
		some [schema, [name]] in _missing
		msg := sprintf("property %q%s has no description", [name, _of(schema.name, array.slice(schema.source, 0, 3))])
	],
	[util.violation(array.concat(schema.source, ["properties"]), msg) |
		some [schema, names] in _missing
		count(names) > 1
		msg := sprintf("properties %s%s have no description", [_list(names), _of(schema.name, array.slice(schema.source, 0, 3))])
	],
)

# _missing pairs each schema that has properties without a description
# with their names, sorted; properties that are $refs are left out.
_missing := specgate.blank_members_in(object.get(input.schemasWith, "properties", []), "properties", "description")

# _list quotes the names of the properties: all of them up to four, the
# first three and how many others beyond.
_list(names) := sprintf("%q and %q", names) if count(names) == 2

else := sprintf("%q, %q and %q", names) if count(names) == 3

else := sprintf("%q, %q, %q and %q", names) if count(names) == 4

else := sprintf("%q, %q, %q and %d others", [names[0], names[1], names[2], count(names) - 3])

# _of names where a schema is: a named schema by its name, any other by
# its owner, which the first three segments of its path tell (the
# schemas inside one named schema or one operation share the call).
_of(name, head) := sprintf(" of schema %s", [name]) if name != ""

else := sprintf(" in %s", [owner]) if {
	owner := style.schema_owner(head)
	owner != ""
} else := ""
