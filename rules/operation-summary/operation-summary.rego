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

import data.specgate.lib.naming
import data.specgate.lib.util

# violations is a list, built in one comprehension, where a set would hash
# and order each finding: a large API leaves thousands of operations
# without a summary (the linter drops repeats). They are found in one call
# (specgate.blank_at; the views give every operation a summary, "" for
# none), not tested one by one in Rego.
violations := [util.violation(op.source, sprintf("%s has no summary", [naming.operation(op)])) |
	some op in specgate.blank_at(util.http_operations, ["summary"])
]
