# METADATA
# title: API keys are not sent in the URL
# description: |
#   No `apiKey` security scheme is sent in the query string (`in: query`).
#   The key would travel in every URL the client calls, and URLs are kept
#   in server and proxy logs, browser history and `Referer` headers, where
#   anyone who reads them can reuse the key (OWASP API2:2023 Broken
#   Authentication). A header keeps it out of all of these.
#
#   Security schemes under `components.securitySchemes` (Swagger:
#   `securityDefinitions`) are checked; the rule reports on their `in`.
#
#   ```yaml
#   securitySchemes:
#     apiKey: {type: apiKey, in: query, name: api_key}     # bad
#     apiKey: {type: apiKey, in: header, name: X-API-Key}  # good
#   ```
# custom:
#   category: Security
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-no-api-keys-in-url"]
#   howToFix: |
#     Send the key in a header: set `in: header` and a header name such as
#     `X-API-Key`, or use `type: http` with `scheme: bearer`. Keep accepting
#     the query parameter only for as long as old clients need it.
package specgate.rules["no-api-key-in-url"]

import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["in"]), msg) if {
	some s in input.securitySchemes
	s.type == "apiKey"
	lower(s["in"]) in {"query", "path"}
	msg := sprintf("security scheme %q sends its API key %q in the URL (in: %s)", [s.name, s.paramName, s["in"]])
}
