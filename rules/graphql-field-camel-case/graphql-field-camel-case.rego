# METADATA
# title: Field names are camelCase
# description: |
#   Every field of an object, interface or input is named in camelCase
#   (`^[a-z][A-Za-z0-9]*$`), the convention of the GraphQL specification's
#   examples and of most public schemas. Field names are the keys of the
#   JSON response and of input objects: one convention keeps client code
#   free of mappings.
#
#   ```graphql
#   type Product {
#     created_at: String   # bad
#     createdAt: String    # good
#   }
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [graphql]
#   howToFix: |
#     Rename the field in camelCase, as the message suggests. Renaming a field
#     breaks the queries that select it: add the new field, deprecate the old
#     one, and remove it when clients have moved.
package specgate.rules["graphql-field-camel-case"]

import data.specgate.lib.util

violations contains util.violation(f.source, sprintf("field %s.%s is not camelCase (use %q)", [f.type, f.name, specgate.respell(f.name, "camel")])) if {
	some f in input.graphql.fields
	not regex.match(`^[a-z][A-Za-z0-9]*$`, f.name)
}
