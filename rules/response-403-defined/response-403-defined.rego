# METADATA
# title: Scoped operations describe 403
# description: |
#   Every operation whose security requirement lists scopes (OpenAPI 3.1+:
#   or roles) describes the `403 Forbidden` response (or a `4XX` range) that
#   it returns to a caller who is authenticated but lacks them. Scopes are
#   the API's function-level authorization; the 403 is where it shows, and
#   clients need it to ask for broader consent instead of retrying (OWASP
#   API5:2023 Broken Function Level Authorization; RFC 6750 answers
#   `insufficient_scope` with 403).
#
#   Operations under `paths` are checked, with their own requirement or the
#   document's; `default` does not count. The rule reports on `responses`.
#
#   When more than half of the operations that require scopes lack a 403,
#   the rule reports once, on `paths`, with their count: adding it is one
#   decision for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   delete:
#     security: [{oauth: [pets:admin]}]
#     responses:           # bad: no 403
#       "204": {description: Deleted}
#       "401": {description: Unauthorized}
#   ```
# custom:
#   category: Responses
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `403` response (ideally a shared `components.responses.Forbidden`)
#     to every operation that requires scopes.
package specgate.rules["response-403-defined"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

# _lacking are the operations that require scopes and describe neither
# 403 nor a 4XX range, in order, as response-401-defined finds its own:
# only those without either are read, and every operation that requires
# scopes (_checked) is counted only when some lack a 403.
_lacking := [i |
	some i in security.without_status(`^(403|4XX|4xx)$`)
	security.scoped(input.operations[i])
]

_checked := [i | some i, op in input.operations; security.scoped(op)]

_api_wide if {
	count(_lacking) > 0
	security.api_wide(_lacking, _checked)
}

violations contains util.violation(security.responses_path(op), msg) if {
	not _api_wide
	some i in _lacking
	op := input.operations[i]
	msg := sprintf("%s requires scopes but describes no 403 response for callers who lack them", [naming.operation(op)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	_api_wide
	msg := sprintf("no 403 response in %s", [security.operations_summary(_lacking, _checked, "operations that require scopes")])
}
