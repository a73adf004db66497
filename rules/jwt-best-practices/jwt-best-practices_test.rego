package specgate.rules["jwt-best-practices_test"]

import data.specgate.rules["jwt-best-practices"] as rule

bearer(name, format, description) := {"name": name, "type": "http", "scheme": "bearer", "bearerFormat": format, "node": {"description": description}, "source": ["s", name]}

msg(name) := sprintf("security scheme %q uses JWTs but its description does not state that they follow RFC 8725 (JWT Best Current Practices)", [name])

test_jwt_bearer_without_statement if {
	vs := rule.violations with input as {"securitySchemes": [bearer("b", "JWT", "Bearer token")]}
	vs == {{"path": ["s", "b", "description"], "message": msg("b")}}
}

test_openid_connect_without_description_reports_on_scheme if {
	oidc := {"name": "o", "type": "openIdConnect", "scheme": "", "bearerFormat": "", "node": {}, "source": ["s", "o"]}
	vs := rule.violations with input as {"securitySchemes": [oidc]}
	vs == {{"path": ["s", "o"], "message": msg("o")}}
}

test_statement_in_any_spelling if {
	count(rule.violations) == 0 with input as {"securitySchemes": [
		bearer("a", "JWT", "Tokens follow RFC 8725."),
		bearer("b", "jwt", "see rfc8725"),
	]}
}

test_non_jwt_schemes_pass if {
	oauth := {"name": "o", "type": "oauth2", "scheme": "", "bearerFormat": "", "node": {}, "source": ["s", "o"]}
	count(rule.violations) == 0 with input as {"securitySchemes": [bearer("b", "opaque", ""), oauth]}
}
