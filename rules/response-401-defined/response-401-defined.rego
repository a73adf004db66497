# METADATA
# title: Authenticated operations describe 401
# description: |
#   Every operation that requires credentials describes the `401
#   Unauthorized` response (or a `4XX` range) that it returns when they are
#   missing, expired or wrong. Clients need its shape to tell "sign in
#   again" from other failures, and a described 401 is a reviewed one: an
#   undocumented authentication failure often leaks details or falls back
#   to a generic error (OWASP API2:2023 Broken Authentication, API8:2023
#   Security Misconfiguration).
#
#   An operation requires credentials when the security requirement that
#   applies to it (its own or the document's) names a scheme in at least
#   one alternative, even if `{}` makes them optional: wrong credentials are
#   still refused. Operations without any requirement cannot answer 401 and
#   are not checked. Operations under `paths` are checked; `default` does
#   not count. The rule reports on `responses`.
#
#   When more than half of the operations that require credentials lack a
#   401, the rule reports once, on `paths`, with their count: adding it is
#   one decision for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   get:
#     security: [{bearer: []}]
#     responses:           # bad: no 401
#       "200": {description: OK}
#   ```
# custom:
#   category: Responses
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-define-error-responses-401"]
#   howToFix: |
#     Add a `401` response with a body schema (ideally a shared
#     `components.responses.Unauthorized`, with a `WWW-Authenticate` header)
#     to every operation that requires credentials.
package specgate.rules["response-401-defined"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

# _lacking are the operations that require credentials and describe
# neither 401 nor a 4XX range, in order: only those without either are
# read. Every operation that requires credentials (_checked) is counted
# only when some lack a 401, for the API-wide test.
_lacking := [i |
	some i in security.without_status(`^(401|4XX|4xx)$`)
	security.authenticates(input.operations[i])
]

_checked := [i | some i, op in input.operations; security.authenticates(op)]

_api_wide if {
	count(_lacking) > 0
	security.api_wide(_lacking, _checked)
}

violations contains util.violation(security.responses_path(op), msg) if {
	not _api_wide
	some i in _lacking
	op := input.operations[i]
	msg := sprintf("%s requires credentials but describes no 401 response", [naming.operation(op)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	_api_wide
	msg := sprintf("no 401 response in %s", [security.operations_summary(_lacking, _checked, "operations that require credentials")])
}
