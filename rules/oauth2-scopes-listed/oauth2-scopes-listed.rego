# METADATA
# title: OAuth 2.0 requirements list scopes
# description: |
#   A security requirement on an OAuth 2.0 scheme that defines scopes lists
#   the scopes the operation needs. An empty list means "any token will
#   do": a token granted for reading profiles can then delete data, and
#   least privilege is lost (OWASP API5:2023 Broken Function Level
#   Authorization).
#
#   The document's `security` and the `security` that operations under
#   `paths` declare are checked; webhooks and callbacks, which the API
#   calls, are not. A scheme whose flows define no scope at all is not
#   reported: there is nothing to ask for. The rule reports on the scheme
#   inside the requirement.
#
#   ```yaml
#   security:
#     - oauth: []              # bad: any token is enough
#     - oauth: [pets:read]     # good
#   ```
# custom:
#   category: Security
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     List the scopes the operation needs, the narrowest that suffice (e.g.
#     `[pets:read]` for reads, `[pets:write]` for changes).
package specgate.rules["oauth2-scopes-listed"]

import data.specgate.lib.security
import data.specgate.lib.util

_enforced contains input.security if input.security != null

_enforced contains op.security if {
	some op in input.operations
	op.security != null
	security.own_security(op)
}

violations contains util.violation(array.concat(alt.source, [entry.name]), msg) if {
	some req in _enforced
	some alt in req.alternatives
	some entry in alt.schemes
	count(entry.scopes) == 0
	scheme := security.schemes[entry.name]
	scheme.type == "oauth2"
	count(security.defined_scopes(scheme)) > 0
	msg := sprintf("security requirement on OAuth 2.0 scheme %q lists no scopes, so any token it issues is accepted", [entry.name])
}
