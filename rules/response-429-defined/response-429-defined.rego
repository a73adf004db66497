# METADATA
# title: Operations describe 429
# description: |
#   Every operation describes the `429 Too Many Requests` response (or a
#   `4XX` range) that it returns when a client exceeds its rate limit. An
#   API without limits can be exhausted by one client, brute-forced or
#   made expensive (OWASP API4:2023 Unrestricted Resource Consumption); a
#   described 429 shows that limits exist and tells clients how to back
#   off.
#
#   Operations under `paths` are checked; `default` does not count. The
#   rule reports on `responses`.
#
#   When more than half of the operations lack a 429, the rule reports
#   once, on `paths`, with their count: adding it is one decision for the
#   whole API. Otherwise it reports each exception.
#
#   ```yaml
#   get:
#     responses:           # bad: no 429
#       "200": {description: OK}
#   ```
# custom:
#   category: Responses
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-define-error-responses-429"]
#   howToFix: |
#     Add a `429` response with a `Retry-After` header, ideally a shared
#     `components.responses.TooManyRequests` referenced by every operation.
package specgate.rules["response-429-defined"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

_checked contains i if some i, _ in input.operations

_lacking := _checked - security.describing({"429", "4XX", "4xx"})

violations contains util.violation(security.responses_path(op), msg) if {
	not security.api_wide(_lacking, _checked)
	some i in _lacking
	op := input.operations[i]
	msg := sprintf("%s describes no 429 response for clients over their rate limit", [naming.operation(op)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	security.api_wide(_lacking, _checked)
	msg := sprintf("no 429 response for clients over their rate limit in %s", [security.operations_summary(_lacking, _checked, "operations")])
}
