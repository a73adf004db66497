# METADATA
# title: Types have a description
# description: |
#   Every type has a description (a string before its definition, or the
#   `description` of an introspected type) saying what it represents.
#   Descriptions are the documentation of a GraphQL API: explorers such as
#   GraphiQL show them, and introspection hands them to every client.
#   The root operation types are exempt: their fields say what they offer.
#
#   ```graphql
#   type Product { id: ID! }           # bad
#
#   "An item for sale."
#   type Product { id: ID! }           # good
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [graphql]
#   howToFix: |
#     Write a description before the type: what it represents and how it
#     relates to the others.
package specgate.rules["graphql-type-description"]

import data.specgate.lib.util

violations contains util.violation(t.source, sprintf("%s %s has no description", [_kind(t.kind), t.name])) if {
	some t in input.graphql.types
	not t.root
	trim_space(t.description) == ""
}

_kind(k) := "input" if k == "INPUT_OBJECT"

else := lower(k)
