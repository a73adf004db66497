package specgate.rules["oauth2-no-implicit-flow_test"]

import data.specgate.rules["oauth2-no-implicit-flow"] as rule

scheme(name, node) := {"name": name, "type": "oauth2", "node": node, "source": ["s", name]}

msg(name) := sprintf("security scheme %q offers the OAuth 2.0 implicit flow, which exposes access tokens in redirect URLs; use the authorization code flow with PKCE", [name])

test_oas3_implicit_flow if {
	vs := rule.violations with input as {"securitySchemes": [scheme("o", {"flows": {"implicit": {"scopes": {}}, "authorizationCode": {}}})]}
	vs == {{"path": ["s", "o", "flows", "implicit"], "message": msg("o")}}
}

test_swagger_implicit_flow if {
	vs := rule.violations with input as {"securitySchemes": [scheme("o", {"type": "oauth2", "flow": "implicit"})]}
	vs == {{"path": ["s", "o", "flow"], "message": msg("o")}}
}

test_other_flows_pass if {
	count(rule.violations) == 0 with input as {"securitySchemes": [
		scheme("a", {"flows": {"authorizationCode": {}, "clientCredentials": {}}}),
		scheme("b", {"type": "oauth2", "flow": "accessCode"}),
	]}
}
