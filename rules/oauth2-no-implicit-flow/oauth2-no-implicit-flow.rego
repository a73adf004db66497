# METADATA
# title: No OAuth 2.0 implicit flow
# description: |
#   No OAuth 2.0 security scheme offers the implicit flow (OpenAPI 3:
#   `flows.implicit`; Swagger: `flow: implicit`). The implicit grant
#   returns the access token in the redirect URL's fragment, where browser
#   history, extensions and referrers can read it, and it cannot bind the
#   token to the client. The OAuth 2.0 Security Best Current Practice
#   (RFC 9700) says clients should not use it (OWASP API2:2023 Broken
#   Authentication); the authorization code flow with PKCE replaces it,
#   also for single-page apps.
#
#   The rule reports on the implicit flow (Swagger: on `flow`).
#
#   ```yaml
#   flows:
#     implicit:                 # bad
#       authorizationUrl: https://example.com/authorize
#       scopes: {}
#     authorizationCode:        # good (with PKCE)
#       authorizationUrl: https://example.com/authorize
#       tokenUrl: https://example.com/token
#       scopes: {}
#   ```
# custom:
#   category: Security
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Offer the authorization code flow (Swagger: `flow: accessCode`) and
#     require PKCE; remove the implicit flow once clients have moved.
package specgate.rules["oauth2-no-implicit-flow"]

import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["flows", "implicit"]), msg) if {
	some s in input.securitySchemes
	s.type == "oauth2"
	s.node.flows.implicit
	msg := _msg(s)
}

violations contains util.violation(array.concat(s.source, ["flow"]), msg) if {
	some s in input.securitySchemes
	s.type == "oauth2"
	s.node.flow == "implicit"
	msg := _msg(s)
}

_msg(s) := sprintf("security scheme %q offers the OAuth 2.0 implicit flow, which exposes access tokens in redirect URLs; use the authorization code flow with PKCE", [s.name])
