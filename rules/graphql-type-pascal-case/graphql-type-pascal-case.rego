# METADATA
# title: Type names are PascalCase
# description: |
#   Every type (object, interface, union, enum, input, scalar) is named in
#   PascalCase (`^[A-Z][A-Za-z0-9]*$`), the convention of the GraphQL
#   specification's own types and of most public schemas. Clients generate
#   classes from type names and write them in fragments (`... on Product`):
#   one convention keeps both predictable.
#
#   ```graphql
#   type product_variant { id: ID! }   # bad
#   type ProductVariant { id: ID! }    # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [graphql]
#   howToFix: |
#     Rename the type in PascalCase, as the message suggests. Clients name
#     types in fragments: renaming one is a breaking change, so do it before
#     the first release.
package specgate.rules["graphql-type-pascal-case"]

import data.specgate.lib.util

violations contains util.violation(t.source, sprintf("%s %s is not PascalCase (use %q)", [_kind(t.kind), t.name, specgate.respell(t.name, "pascal")])) if {
	some t in input.graphql.types
	not regex.match(`^[A-Z][A-Za-z0-9]*$`, t.name)
}

_kind(k) := "input" if k == "INPUT_OBJECT"

else := lower(k)
