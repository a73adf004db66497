# METADATA
# title: JWT schemes state RFC 8725 compliance
# description: |
#   A security scheme whose tokens are JSON Web Tokens says in its
#   `description` that they follow RFC 8725, the JWT Best Current
#   Practices. JWT handling goes wrong in well-known ways: the `none`
#   algorithm, algorithm confusion between RSA and HMAC keys, missing
#   audience or issuer checks, weak HMAC secrets (OWASP API2:2023 Broken
#   Authentication). Stating the profile tells implementers and reviewers
#   which of those the API rules out, and makes it a checked commitment.
#
#   The schemes checked are `http` bearer schemes whose `bearerFormat`
#   names JWT and `openIdConnect` schemes, whose ID tokens are JWTs.
#   OAuth 2.0 schemes are not checked: their access tokens need not be
#   JWTs. "RFC 8725" and "RFC8725" are accepted in any case. The rule
#   reports on the `description`, or on the scheme when it has none.
#
#   ```yaml
#   bearerAuth:          # bad: no word on how tokens are validated
#     type: http
#     scheme: bearer
#     bearerFormat: JWT
#   bearerAuth:          # good
#     type: http
#     scheme: bearer
#     bearerFormat: JWT
#     description: Tokens are signed with ES256 and validated as RFC 8725 requires.
#   ```
# custom:
#   category: Security
#   maturity: Platinum
#   severity: warn
#   family: security
#   formats: [oas3]
#   peers: ["vacuum:owasp-jwt-best-practices"]
#   howToFix: |
#     Check that the API validates tokens as RFC 8725 recommends (an
#     allow-list of algorithms, `aud` and `iss` checks, no `none`), then say
#     so in the scheme's description, e.g. "JWTs follow RFC 8725".
package specgate.rules["jwt-best-practices"]

import data.specgate.lib.util

violations contains util.violation(_where(s), msg) if {
	some s in input.securitySchemes
	_jwt(s)
	not regex.match(`(?i)rfc\s*8725`, object.get(s.node, "description", ""))
	msg := sprintf("security scheme %q uses JWTs but its description does not state that they follow RFC 8725 (JWT Best Current Practices)", [s.name])
}

_jwt(s) if {
	s.type == "http"
	s.scheme == "bearer"
	contains(lower(s.bearerFormat), "jwt")
}

_jwt(s) if s.type == "openIdConnect"

_where(s) := array.concat(s.source, ["description"]) if s.node.description

else := s.source
