# METADATA
# title: Success responses declare rate-limit headers
# description: |
#   Every success (2xx) response declares a rate-limit header, so clients
#   see their quota before they exhaust it: `RateLimit` and
#   `RateLimit-Policy` (IETF draft "RateLimit header fields for HTTP"), the
#   older `RateLimit-Limit`/`-Remaining`/`-Reset`, or the common
#   `X-RateLimit-*` and `X-Rate-Limit-*` families. Documented limits are
#   the visible part of protection against resource exhaustion and
#   scraping (OWASP API4:2023 Unrestricted Resource Consumption).
#
#   The 2xx responses (and `2XX` ranges) of operations under `paths` are
#   checked; any header whose name starts with `RateLimit`, `Rate-Limit`,
#   `X-RateLimit` or `X-Rate-Limit` (any case) counts. Error responses are
#   not checked (the 429 has its own rules). A response shared through a
#   `$ref` to `components.responses` (Swagger: `responses`) is reported
#   once, at its definition; any other on the response.
#
#   When more than half of the success responses lack one, the rule
#   reports once, on `paths`, with their count: adding it is one decision
#   for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   "200":                   # bad
#     description: OK
#   "200":                   # good
#     description: OK
#     headers:
#       RateLimit: {$ref: '#/components/headers/RateLimit'}
#   ```
# custom:
#   category: Responses
#   maturity: Platinum
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-rate-limit"]
#   howToFix: |
#     Declare the rate-limit headers once under `components.headers` and
#     reference them from the success responses.
package specgate.rules["response-rate-limit-headers"]

import data.specgate.lib.security
import data.specgate.lib.util

# _responses pairs each success response, as the site to report on (a
# response shared through a $ref is one site), with whether it lacks a
# rate-limit header. The success statuses are picked from those written,
# and their responses found through the index by status.
_responses := [[security.response_site(op, r), _lacks(r)] |
	some status in security.statuses_written
	startswith(status, "2")
	some [op, r] in security.responses_with(status)
]

_lacks(r) := false if _rate_limited(r)

else := true

_checked := {pair[0] | some pair in _responses}

_lacking := {pair[0] | some pair in _responses; pair[1]}

violations contains util.violation(site, msg) if {
	not security.api_wide(_lacking, _checked)
	some site in _lacking
	msg := sprintf("%s declares no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…)", [security.site_label(site)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	security.api_wide(_lacking, _checked)
	msg := sprintf("no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…) in %s", [security.responses_summary(_lacking, _checked, "success responses")])
}

_rate_limited(r) if {
	some h in r.headers
	regex.match(`(?i)^(x-)?rate-?limit`, h.name)
}
