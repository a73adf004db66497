# METADATA
# title: OAuth scopes are declared by their scheme
# description: |
#   A scope that a server, an operation or an operation trait requires is
#   one of the scopes the OAuth 2 security scheme declares in its flows.
#   An undeclared scope cannot be granted by the authorization server the
#   flows describe, so a client following the document can never get a
#   token that is accepted.
#
#   In AsyncAPI 2 the scopes of each requirement (`oauth: [read]`) are
#   checked against the `scopes` of the scheme's flows; in AsyncAPI 3 the
#   `scopes` of each OAuth 2 scheme (under `components.securitySchemes` or
#   written inline in a security list) are checked against the
#   `availableScopes` of its flows. Schemes of other types, and
#   requirements of schemes that are not defined, are not checked here.
#   The rule reports on the scope.
#
#   ```yaml
#   components:
#     securitySchemes:
#       oauth:
#         type: oauth2
#         flows:
#           clientCredentials:
#             tokenUrl: https://auth.mycompany.com/token
#             availableScopes:
#               lights:read: Read measurements.
#         scopes:
#           - lights:read      # good
#           - lights:write     # bad: not an available scope
#   ```
# custom:
#   category: Security
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["redocly:security-scopes-defined", "spectral:asyncapi-operation-security", "spectral:asyncapi-server-security"]
#   howToFix: |
#     Declare the scope in the flows of the scheme (with a description of
#     what it grants), or correct its spelling where it is required.
package specgate.rules["asyncapi-security-scopes-defined"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(l.source, [i, name, j]), msg) if {
	asyncapi.v2
	some l in asyncapi.security_lists
	some i, requirement in l.list
	some name, scopes in requirement
	scheme := asyncapi.deref(asyncapi.security_schemes[name])
	scheme.type == "oauth2"
	some j, scope in scopes
	not scope in _available(scheme, "scopes")
	msg := sprintf("%s requires scope %q of security scheme %q, which its flows do not declare", [l.owner, scope, name])
}

violations contains util.violation(array.concat(s.source, ["scopes", j]), msg) if {
	asyncapi.v3
	some s in _v3_schemes
	s.scheme.type == "oauth2"
	some j, scope in s.scheme.scopes
	not scope in _available(s.scheme, "availableScopes")
	msg := sprintf("%s requires scope %q, which its flows do not declare in availableScopes", [s.name, scope])
}

_available(scheme, field) := {scope |
	some raw in object.get(scheme, "flows", {})
	flow := asyncapi.deref(raw)
	some scope, _ in object.get(flow, field, {})
}

_v3_schemes contains {"scheme": s, "source": ["components", "securitySchemes", name], "name": sprintf("security scheme %q", [name])} if {
	some name, raw in asyncapi.security_schemes
	s := asyncapi.deref(raw)
}

_v3_schemes contains {"scheme": item, "source": array.concat(l.source, [i]), "name": sprintf("the security scheme written in the security of %s", [l.owner])} if {
	some l in asyncapi.security_lists
	some i, item in l.list
	not asyncapi.is_ref(item)
}
