# METADATA
# title: Operations describe server errors
# description: |
#   Every operation describes what it returns when it fails on the server:
#   a `500` response, a `5XX` range or a `default` response. An error
#   response without a described shape is where stack traces, SQL errors
#   and internal host names leak to clients (OWASP API8:2023 Security
#   Misconfiguration); describing it fixes the contract to a neutral error
#   body.
#
#   Operations under `paths` are checked. `default` counts, since it
#   describes every status not listed, server errors included. The rule
#   reports on `responses`.
#
#   When more than half of the operations lack a server error response,
#   the rule reports once, on `paths`, with their count: adding it is one
#   decision for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   get:
#     responses:           # bad: nothing for server errors
#       "200": {description: OK}
#       "404": {description: Not found}
#   ```
# custom:
#   category: Responses
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-define-error-responses-500"]
#   howToFix: |
#     Add a `500` (or `default`) response with a generic error schema, such
#     as RFC 9457 problem details, shared under `components.responses`.
package specgate.rules["response-500-defined"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

_checked contains i if some i, _ in input.operations

_lacking := _checked - security.describing({"500", "5XX", "5xx", "default"})

violations contains util.violation(security.responses_path(op), msg) if {
	not security.api_wide(_lacking, _checked)
	some i in _lacking
	op := input.operations[i]
	msg := sprintf("%s describes no response for server errors (500, 5XX or default)", [naming.operation(op)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	security.api_wide(_lacking, _checked)
	msg := sprintf("no response for server errors (500, 5XX or default) in %s", [security.operations_summary(_lacking, _checked, "operations")])
}
