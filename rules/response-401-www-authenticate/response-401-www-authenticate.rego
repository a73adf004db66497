# METADATA
# title: 401 responses declare WWW-Authenticate
# description: |
#   Every `401 Unauthorized` response declares the `WWW-Authenticate`
#   header. HTTP requires it (RFC 9110, section 15.5.2: a 401 "MUST send
#   a WWW-Authenticate header field"): it names the scheme and realm to
#   authenticate with, and for bearer tokens carries the error
#   (`invalid_token`, `insufficient_scope`) that tells a client whether to
#   refresh its token or ask the user again (RFC 6750; OWASP API2:2023
#   Broken Authentication).
#
#   The 401 responses of operations under `paths` are checked; header
#   names are compared without case. A response shared through a `$ref` to
#   `components.responses` (Swagger: `responses`) is reported once, at its
#   definition; any other on the response.
#
#   When more than half of the 401 responses lack the header, the rule
#   reports once, on `paths`, with their count: adding it is one decision
#   for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   "401":                       # bad
#     description: Unauthorized
#   "401":                       # good
#     description: Unauthorized
#     headers:
#       WWW-Authenticate: {schema: {type: string}}
#   ```
# custom:
#   category: Responses
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Declare `WWW-Authenticate` on the 401 response, ideally once in a
#     shared `components.responses.Unauthorized`.
package specgate.rules["response-401-www-authenticate"]

import data.specgate.lib.security
import data.specgate.lib.util

# _checked are the responses the rule checks, as sites: a response shared
# through a $ref is one site.
_checked := {site | some [site, _] in _sites}

_lacking := {site | some [site, r] in _sites; not security.header_named(r, {"www-authenticate"})}

_sites := [[security.response_site(op, r), r] | some [op, r] in security.responses_with("401")]

violations contains util.violation(site, msg) if {
	not security.api_wide(_lacking, _checked)
	some site in _lacking
	msg := sprintf("%s declares no WWW-Authenticate header, which HTTP requires on a 401", [security.site_label(site)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	security.api_wide(_lacking, _checked)
	msg := sprintf("no WWW-Authenticate header, which HTTP requires, in %s", [security.responses_summary(_lacking, _checked, "401 responses")])
}
