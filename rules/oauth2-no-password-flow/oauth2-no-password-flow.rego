# METADATA
# title: No OAuth 2.0 password flow
# description: |
#   No OAuth 2.0 security scheme offers the resource owner password
#   credentials flow (OpenAPI 3: `flows.password`; Swagger:
#   `flow: password`). It has the client collect the user's password, the
#   very thing OAuth exists to avoid: the client can keep or leak it, and
#   the user cannot use multi-factor or single sign-on. The OAuth 2.0
#   Security Best Current Practice (RFC 9700) says it must not be used
#   (OWASP API2:2023 Broken Authentication).
#
#   The rule reports on the password flow (Swagger: on `flow`).
#
#   ```yaml
#   flows:
#     password:                    # bad
#       tokenUrl: https://example.com/token
#       scopes: {}
#     authorizationCode:           # good (with PKCE)
#       authorizationUrl: https://example.com/authorize
#       tokenUrl: https://example.com/token
#       scopes: {}
#   ```
# custom:
#   category: Security
#   maturity: Silver
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Let users sign in at the authorization server with the authorization
#     code flow and PKCE (Swagger: `flow: accessCode`); services without a
#     user use the client credentials flow (Swagger: `flow: application`).
package specgate.rules["oauth2-no-password-flow"]

import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["flows", "password"]), msg) if {
	some s in input.securitySchemes
	s.type == "oauth2"
	s.node.flows.password
	msg := _msg(s)
}

violations contains util.violation(array.concat(s.source, ["flow"]), msg) if {
	some s in input.securitySchemes
	s.type == "oauth2"
	s.node.flow == "password"
	msg := _msg(s)
}

_msg(s) := sprintf("security scheme %q offers the OAuth 2.0 password flow, which hands users' passwords to the client", [s.name])
