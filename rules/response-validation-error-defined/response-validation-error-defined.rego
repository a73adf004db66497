# METADATA
# title: Operations with input describe validation errors
# description: |
#   Every operation that takes input (parameters or a request body)
#   describes the response it returns for invalid input: `400`, `422` or a
#   `4XX` range. Input validation is the API's first defence against
#   injection and mass assignment; a described validation error shows that
#   the API rejects what its schemas forbid, and gives clients one error
#   shape instead of whatever the framework emits (OWASP API8:2023 Security
#   Misconfiguration, API3:2023 Broken Object Property Level
#   Authorization).
#
#   Operations under `paths` with at least one parameter or a request body
#   are checked: an operation without input has nothing to validate.
#   `default` does not count. The rule reports on `responses`.
#
#   When more than half of the operations with input lack a validation
#   error, the rule reports once, on `paths`, with their count: adding it
#   is one decision for the whole API. Otherwise it reports each
#   exception.
#
#   ```yaml
#   post:
#     requestBody: …
#     responses:           # bad: no 400 or 422
#       "201": {description: Created}
#   ```
# custom:
#   category: Responses
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-define-error-validation"]
#   howToFix: |
#     Add a `400` (malformed input) or `422` (well-formed but invalid input)
#     response with an error schema that names the offending fields.
package specgate.rules["response-validation-error-defined"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

_checked := security.taking_input

_lacking := _checked - security.describing({"400", "422", "4XX", "4xx"})

violations contains util.violation(security.responses_path(op), msg) if {
	not security.api_wide(_lacking, _checked)
	some i in _lacking
	op := input.operations[i]
	msg := sprintf("%s takes input but describes no 400 or 422 response for invalid input", [naming.operation(op)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	security.api_wide(_lacking, _checked)
	msg := sprintf("no 400 or 422 response for invalid input in %s", [security.operations_summary(_lacking, _checked, "operations that take input")])
}
