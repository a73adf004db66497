# METADATA
# title: Operations describe a client error
# description: |
#   Every operation describes at least one client error: a `4xx` status
#   (`400`, `404`, `409`, …) or the `4XX` range. Clients branch on the
#   status of a failed call: without a described 4xx response they cannot
#   tell from the description which of their mistakes the operation
#   rejects, nor what the error body looks like, and generated clients
#   treat every failure alike.
#
#   Operations under `paths` that take input (a parameter or a request
#   body) and describe responses are checked. An operation without input
#   (`GET /health`) has nothing a client can get wrong: its authentication
#   and rate-limit failures are the concern of `response-401-defined` and
#   `response-429-defined`, and one without any response is left to
#   `operation-success-response`. A `default` response does not count: it
#   describes errors without saying which statuses occur. The rule reports
#   on `responses`.
#
#   When more than half of the operations lack a 4xx response, the rule
#   reports once, on `paths`, with their count: describing client errors
#   is one decision for the whole API. Otherwise it reports each
#   exception.
#
#   ```yaml
#   /pets/{petId}:
#     get:
#       responses:           # bad: no 4xx response
#         "200": {description: The pet}
#         default: {description: Unexpected error}
#   ```
# custom:
#   category: Responses
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-4xx-response", "redocly:operation-4xx-response"]
#   howToFix: |
#     Add the client errors the operation returns, each with its error
#     schema: `400` for malformed input, `404` when the resource does not
#     exist, `409` for a conflict, or `4XX` when one shape covers them all.
package specgate.rules["operation-4xx-response"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

# _lacking are the operations that take input and describe a response
# but no client error status, in order: the operations are sorted by
# their statuses in one call (each distinct status matched once), and
# only those without a 4xx are read. The operations that take input and
# describe a response (_checked) are counted only when some lack a 4xx:
# no set of them is subtracted (OPA sorts both operands of a difference).
_lacking := [i |
	some i in _others
	_ = input.operations[i].responses[0]
	security.taking_input[i]
]

_checked := [i | some i in security.taking_input; _ = input.operations[i].responses[0]]

_api_wide if {
	count(_lacking) > 0
	security.api_wide(_lacking, _checked)
}

_others := specgate.positions_matching(input.operations, ["responses", null, "status"], `^4([0-9][0-9]|[Xx][Xx])$`)[1]

violations contains util.violation(security.responses_path(op), msg) if {
	not _api_wide
	some i in _lacking
	op := input.operations[i]
	msg := sprintf("%s describes no client error (4xx) response", [naming.operation(op)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	_api_wide
	msg := sprintf("no client error (4xx) response in %s", [security.operations_summary(_lacking, _checked, "operations")])
}
