# METADATA
# title: Required scopes are defined
# description: |
#   Every scope that a security requirement asks of an OAuth 2.0 scheme is
#   defined by that scheme: in the `scopes` of one of its flows (Swagger:
#   the scheme's `scopes`). An undefined scope is a typo or a leftover:
#   clients cannot request it, so the operation is either unusable or, if
#   the server does not check the scope, less protected than it claims
#   (OWASP API5:2023 Broken Function Level Authorization).
#
#   The document's `security` and the `security` of every operation
#   (under `paths`, `webhooks` and `callbacks`) are checked. Requirements
#   on other scheme types are not (their "scopes" are roles nobody
#   declares), nor are undefined schemes (see `security-schemes-defined`).
#   The rule reports on the scope.
#
#   ```yaml
#   security:
#     - oauth: [pets:wirte]   # bad: the scheme defines pets:write
#   ```
# custom:
#   category: Security
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   peers: ["redocly:security-scopes-defined"]
#   howToFix: |
#     Correct the scope's spelling, or define it in the `scopes` of the
#     scheme's flows with a description of what it grants.
package specgate.rules["security-scopes-defined"]

import data.specgate.lib.security
import data.specgate.lib.util

violations contains util.violation(array.concat(alt.source, [entry.name, i]), msg) if {
	some req in security.requirements
	some alt in req.alternatives
	some entry in alt.schemes
	scheme := security.schemes[entry.name]
	scheme.type == "oauth2"
	defined := security.defined_scopes(scheme)
	some i, scope in entry.scopes
	not scope in defined
	msg := sprintf("scope %q is not defined by security scheme %q%s", [scope, entry.name, _hint(scope, defined)])
}

_hint(scope, defined) := sprintf(" (did you mean %q?)", [min(near)]) if {
	near := {d | some d in defined; lower(d) == lower(scope)}
	count(near) > 0
} else := ""
