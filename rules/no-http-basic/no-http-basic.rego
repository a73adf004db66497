# METADATA
# title: No HTTP Basic authentication
# description: |
#   No security scheme uses HTTP Basic authentication (`type: http`,
#   `scheme: basic`; Swagger: `type: basic`). Basic sends the user's
#   password, merely base64-encoded, with every request: each request is a
#   chance to leak it (logs, proxies, a TLS mistake), it cannot be scoped
#   or expired without changing the password, and it invites credential
#   stuffing (OWASP API2:2023 Broken Authentication). Token-based schemes
#   (OAuth 2.0, bearer tokens) send a short-lived, revocable credential
#   instead.
#
#   The rule reports on the scheme's `scheme` (Swagger: `type`).
#
#   ```yaml
#   securitySchemes:
#     basicAuth: {type: http, scheme: basic}    # bad
#     bearerAuth: {type: http, scheme: bearer}  # good
#   ```
# custom:
#   category: Security
#   maturity: Bronze
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-no-http-basic"]
#   howToFix: |
#     Authenticate with OAuth 2.0 or with bearer tokens that the API
#     issues and can revoke (`type: http`, `scheme: bearer`). If Basic must
#     stay for old clients, mark the scheme deprecated in its description
#     and offer the token scheme beside it.
package specgate.rules["no-http-basic"]

import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, [_key]), msg) if {
	some s in input.securitySchemes
	s.type == "http"
	s.scheme == "basic"
	msg := sprintf("security scheme %q uses HTTP Basic authentication, which sends the password with every request", [s.name])
}

_key := "type" if util.is_oas2

else := "scheme"
