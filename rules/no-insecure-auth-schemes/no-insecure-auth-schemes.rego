# METADATA
# title: No outdated HTTP authentication schemes
# description: |
#   No `http` security scheme uses `negotiate` or `oauth`. `Negotiate`
#   (SPNEGO, RFC 4559) falls back to NTLM, whose challenge-responses can be
#   relayed and cracked offline, and it ties the API to a Windows domain;
#   `OAuth` as an HTTP scheme is OAuth 1.0 (RFC 5849), superseded by
#   OAuth 2.0 (OWASP API2:2023 Broken Authentication). HTTP Basic has its
#   own rule, `no-http-basic`.
#
#   The scheme name is compared without case, as HTTP does; the rule
#   reports on `scheme`.
#
#   ```yaml
#   securitySchemes:
#     windows: {type: http, scheme: negotiate}  # bad
#     oauth1: {type: http, scheme: OAuth}       # bad
#     oauth2: {type: oauth2, flows: {…}}         # good
#   ```
# custom:
#   category: Security
#   maturity: Bronze
#   severity: error
#   family: security
#   formats: [oas3]
#   peers: ["vacuum:owasp-auth-insecure-schemes"]
#   howToFix: |
#     Move to OAuth 2.0 (`type: oauth2`) or to bearer tokens
#     (`type: http`, `scheme: bearer`); for machine-to-machine calls inside
#     an organisation, mutual TLS (`type: mutualTLS`) is an alternative.
package specgate.rules["no-insecure-auth-schemes"]

import data.specgate.lib.util

_why := {
	"negotiate": "Negotiate, which falls back to NTLM",
	"oauth": "OAuth 1.0, superseded by OAuth 2.0",
}

violations contains util.violation(array.concat(s.source, ["scheme"]), msg) if {
	some s in input.securitySchemes
	s.type == "http"
	why := _why[s.scheme]
	msg := sprintf("security scheme %q uses the outdated HTTP authentication scheme %s", [s.name, why])
}
