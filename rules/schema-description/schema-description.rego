# METADATA
# title: Named schemas have a description
# description: |
#   Every schema under `components.schemas` (Swagger 2.0: `definitions`)
#   has a `description` saying what it represents. Named schemas are the
#   types of the API: documentation shows them as models, and generated
#   clients turn their description into the doc comment of a class.
#
#   A schema that is only a `$ref` to another one (an alias) takes its
#   description from there and is not reported, nor is a boolean schema. A
#   description made only of whitespace counts as missing. The rule reports
#   on the schema's key.
#
#   ```yaml
#   components:
#     schemas:
#       Pet:                 # bad: no description
#         type: object
#       Pet:
#         description: An animal in the store's care.   # good
#         type: object
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:component-description"]
#   howToFix: |
#     Add a `description` of a sentence or two: what the object stands for,
#     and anything a field-by-field reading would miss (lifecycle, who
#     creates it, invariants between fields).
package specgate.rules["schema-description"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(source, sprintf("schema %s has no description", [name])) if {
	some [name, source, schema] in style.named_schemas
	is_object(schema)
	not "$ref" in object.keys(schema)
	style.blank(object.get(schema, "description", ""))
}
