# METADATA
# title: Operations have a description
# description: |
#   Every operation has a `description` that explains what it does beyond
#   its summary: its behaviour, side effects, permissions and edge cases.
#   It is what a developer reads before calling the operation.
#
#   Operations under `paths`, `webhooks` and `callbacks` are checked; a
#   description made only of whitespace counts as missing, and a summary
#   does not replace it. The rule reports on the operation.
#
#   ```yaml
#   /pets/{id}:
#     delete:              # bad: no description
#       summary: Delete a pet
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-description", "spectral:operation-description", "redocly:operation-description"]
#   howToFix: |
#     Add a `description` saying what the operation does, what it changes,
#     who may call it and what can go wrong. Markdown is allowed.
package specgate.rules["operation-description"]

import data.specgate.lib.util

# violations are found in one call (specgate.blank_at; the views give
# every operation a description, "" for none) and built in another
# (specgate.operation_violations): a large API leaves thousands of
# operations without one, and naming each and building its finding in Rego
# cost more than finding them.
violations := specgate.operation_violations(specgate.blank_at(util.http_operations, ["description"]), [], "{operation} has no description")
