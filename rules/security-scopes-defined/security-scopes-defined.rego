# METADATA
# title: Security requirements use defined OAuth2 scopes
# description: |
#   Every scope a security requirement asks of an OAuth2 scheme is one the
#   scheme defines: in one of its flows' `scopes` (OpenAPI 3), or in its
#   `scopes` (Swagger 2.0). An undefined scope cannot be requested from
#   the authorization server as documented; it is usually a typo
#   (`pets:write` for `write:pets`) or a scope renamed in one place only,
#   and clients that follow the description ask for a token that does not
#   grant access.
#
#   The document's `security` and that of every operation (under `paths`,
#   `webhooks` and `callbacks`) are checked. Only OAuth2 schemes are: the
#   scopes of OpenID Connect schemes are defined by the provider, and for
#   other schemes the list holds roles (OpenAPI 3.1) or must be empty
#   (OpenAPI 3.0), which is not this rule's concern. The rule reports on
#   each undefined scope.
#
#   ```yaml
#   security:
#     - petstore_auth: [pets:write]   # bad: the scheme defines write:pets
#   components:
#     securitySchemes:
#       petstore_auth:
#         type: oauth2
#         flows:
#           implicit:
#             authorizationUrl: https://example.org/oauth
#             scopes: {write:pets: modify pets, read:pets: read pets}
#   ```
# custom:
#   category: Security
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["redocly:security-scopes-defined"]
#   howToFix: |
#     Correct the scope to one the scheme defines, or add it to the scopes
#     of the scheme's flows, with a description of what it grants.
package specgate.rules["security-scopes-defined"]

import data.specgate.lib.correctness
import data.specgate.lib.util

# _scopes are the scopes each OAuth2 scheme defines.
_scopes[s.name] := {scope |
	some flow in object.get(s.node, "flows", {})
	some scope, _ in object.get(flow, "scopes", {})
} | {scope | some scope, _ in object.get(s.node, "scopes", {})} if {
	some s in input.securitySchemes
	s.type == "oauth2"
}

_requirements := array.concat(
	[input.security | input.security != null],
	[op.security | some op in correctness.operations; op.security != null],
)

violations contains util.violation(array.concat(alt.source, [scheme.name, i]), msg) if {
	some req in _requirements
	some alt in req.alternatives
	some scheme in alt.schemes
	defined := _scopes[scheme.name]
	some i, scope in scheme.scopes
	not scope in defined
	msg := sprintf("scope %q is not defined by the OAuth2 scheme %q%s", [scope, scheme.name, _hint(scope, defined)])
}

_hint(scope, defined) := sprintf(" (defined: %s)", [concat(", ", sort(defined))]) if {
	count(defined) > 0
	count(defined) <= 8
} else := ""
