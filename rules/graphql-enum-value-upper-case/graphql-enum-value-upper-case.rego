# METADATA
# title: Enum values are UPPER_SNAKE_CASE
# description: |
#   Every enum value is named in UPPER_SNAKE_CASE
#   (`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`), as the GraphQL specification's
#   examples and `__TypeKind` are. Clients generate constants from them and
#   compare them as strings in responses.
#
#   ```graphql
#   enum Status {
#     inStock      # bad
#     IN_STOCK     # good
#   }
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [graphql]
#   howToFix: |
#     Rename the value in UPPER_SNAKE_CASE, as the message suggests. Renaming a
#     value breaks clients that send or compare it: add the new value,
#     deprecate the old one, and remove it when clients have moved.
package specgate.rules["graphql-enum-value-upper-case"]

import data.specgate.lib.util

violations contains util.violation(v.source, sprintf("value %s of enum %s is not UPPER_SNAKE_CASE (use %q)", [v.name, v.type, upper(specgate.respell(v.name, "snake"))])) if {
	some v in input.graphql.enumValues
	not regex.match(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`, v.name)
}
