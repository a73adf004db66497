# METADATA
# title: Fields have a description
# description: |
#   Every field of an object, interface or input has a description saying
#   what it holds. Descriptions are the documentation of a GraphQL API:
#   explorers show them beside each field while a query is written.
#
#   ```graphql
#   type Product {
#     sku: String          # bad
#     "Stock keeping unit, unique per variant."
#     sku: String          # good
#   }
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [graphql]
#   howToFix: |
#     Write a description before the field: what it holds, its unit or format,
#     when it is null.
package specgate.rules["graphql-field-description"]

import data.specgate.lib.util

violations contains util.violation(f.source, sprintf("field %s.%s has no description", [f.type, f.name])) if {
	some f in input.graphql.fields
	trim_space(f.description) == ""
}
