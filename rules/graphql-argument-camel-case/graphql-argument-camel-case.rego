# METADATA
# title: Argument names are camelCase
# description: |
#   Every argument of a field is named in camelCase (`^[a-z][A-Za-z0-9]*$`),
#   as fields are: clients write arguments next to field names in every
#   query.
#
#   ```graphql
#   type Query {
#     products(page_size: Int): [Product!]!   # bad
#     products(pageSize: Int): [Product!]!    # good
#   }
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [graphql]
#   howToFix: |
#     Rename the argument in camelCase, as the message suggests. Renaming an
#     argument breaks the queries that pass it: add the new one, deprecate the
#     old one, and remove it when clients have moved.
package specgate.rules["graphql-argument-camel-case"]

import data.specgate.lib.util

violations contains util.violation(a.source, sprintf("argument %s of %s.%s is not camelCase (use %q)", [a.name, a.type, a.field, specgate.respell(a.name, "camel")])) if {
	some a in input.graphql.arguments
	not regex.match(`^[a-z][A-Za-z0-9]*$`, a.name)
}
