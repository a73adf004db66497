# METADATA
# title: Operations have a summary
# description: |
#   Every operation has a `summary`: a short phrase saying what it does
#   ("List pets"). Documentation tools use it as the operation's title in
#   navigation and search, and fall back to the bare method and path
#   without it.
#
#   Operations under `paths`, `webhooks` and `callbacks` are checked; a
#   summary made only of whitespace counts as missing. The rule reports on
#   the operation.
#
#   ```yaml
#   /pets:
#     get:                 # bad: no summary
#       operationId: listPets
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["redocly:operation-summary"]
#   howToFix: |
#     Add a `summary` of a few words that starts with a verb and names the
#     resource ("List pets", "Create a pet"); keep the details for
#     `description`.
package specgate.rules["operation-summary"]

import data.specgate.lib.util

# violations are found in one call (specgate.blank_at; the views give
# every operation a summary, "" for none) and built in another
# (specgate.operation_violations): a large API leaves thousands of
# operations without one, and naming each and building its finding in Rego
# cost more than finding them.
violations := specgate.operation_violations(specgate.blank_at(util.http_operations, ["summary"]), [], "{operation} has no summary")
