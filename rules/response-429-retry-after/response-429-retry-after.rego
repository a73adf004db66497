# METADATA
# title: 429 responses declare Retry-After
# description: |
#   Every `429 Too Many Requests` response declares a `Retry-After` header
#   saying when the client may try again (RFC 6585, RFC 9110). Without it,
#   clients guess: they retry at once and keep the limit hit, or back off
#   longer than needed (OWASP API4:2023 Unrestricted Resource Consumption).
#
#   The 429 responses of operations under `paths` are checked; header
#   names are compared without case. A response shared through a `$ref` to
#   `components.responses` (Swagger: `responses`) is reported once, at its
#   definition; any other on the response.
#
#   When more than half of the 429 responses lack the header, the rule
#   reports once, on `paths`, with their count: adding it is one decision
#   for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   "429":                   # bad: when may the client retry?
#     description: Too many requests
#   "429":                   # good
#     description: Too many requests
#     headers:
#       Retry-After: {schema: {type: integer}}
#   ```
# custom:
#   category: Responses
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-rate-limit-retry-after"]
#   howToFix: |
#     Add a `Retry-After` header (seconds, or an HTTP date) to the 429
#     response; share it under `components.headers`.
package specgate.rules["response-429-retry-after"]

import data.specgate.lib.security
import data.specgate.lib.util

# _checked are the responses the rule checks, as sites: a response shared
# through a $ref is one site.
_checked := {site | some [site, _] in _sites}

_lacking := {site | some [site, r] in _sites; not security.header_named(r, {"retry-after"})}

_sites := [[security.response_site(op, r), r] | some [op, r] in security.responses_with("429")]

violations contains util.violation(site, msg) if {
	not security.api_wide(_lacking, _checked)
	some site in _lacking
	msg := sprintf("%s declares no Retry-After header", [security.site_label(site)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	security.api_wide(_lacking, _checked)
	msg := sprintf("no Retry-After header in %s", [security.responses_summary(_lacking, _checked, "429 responses")])
}
