package specgate.rules["oauth2-no-password-flow_test"]

import data.specgate.rules["oauth2-no-password-flow"] as rule

scheme(name, node) := {"name": name, "type": "oauth2", "node": node, "source": ["s", name]}

msg(name) := sprintf("security scheme %q offers the OAuth 2.0 password flow, which hands users' passwords to the client", [name])

test_oas3_password_flow if {
	vs := rule.violations with input as {"securitySchemes": [scheme("o", {"flows": {"password": {"scopes": {}}, "clientCredentials": {}}})]}
	vs == {{"path": ["s", "o", "flows", "password"], "message": msg("o")}}
}

test_swagger_password_flow if {
	vs := rule.violations with input as {"securitySchemes": [scheme("o", {"type": "oauth2", "flow": "password"})]}
	vs == {{"path": ["s", "o", "flow"], "message": msg("o")}}
}

test_other_flows_pass if {
	count(rule.violations) == 0 with input as {"securitySchemes": [
		scheme("a", {"flows": {"authorizationCode": {}, "clientCredentials": {}}}),
		scheme("b", {"type": "oauth2", "flow": "application"}),
	]}
}
