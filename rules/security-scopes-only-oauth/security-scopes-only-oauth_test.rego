package specgate.rules["security-scopes-only-oauth_test"]

import data.specgate.rules["security-scopes-only-oauth"] as rule

requirement(entries) := {"source": ["security"], "alternatives": [{"source": ["security", 0], "schemes": entries}]}

schemes := [
	{"name": "oauth", "type": "oauth2"},
	{"name": "oidc", "type": "openIdConnect"},
	{"name": "key", "type": "apiKey"},
	{"name": "basic", "type": "http"},
]

doc(format, entries) := {"format": format, "security": requirement(entries), "operations": [], "webhooks": [], "callbacks": [], "securitySchemes": schemes}

test_scopes_on_api_key_and_http if {
	vs := rule.violations with input as doc("openapi", [{"name": "key", "scopes": ["admin"]}, {"name": "basic", "scopes": ["x"]}, {"name": "oidc", "scopes": ["openid"]}])
	vs == {
		{"path": ["security", 0, "key"], "message": `security scheme "key" is of type apiKey, whose list of scopes must be empty in OpenAPI 3.0`},
		{"path": ["security", 0, "basic"], "message": `security scheme "basic" is of type http, whose list of scopes must be empty in OpenAPI 3.0`},
	}
}

test_swagger_names_its_types if {
	vs := rule.violations with input as doc("swagger", [{"name": "basic", "scopes": ["x"]}, {"name": "oauth", "scopes": ["read"]}])
	vs == {{"path": ["security", 0, "basic"], "message": `security scheme "basic" is of type basic, whose list of scopes must be empty in Swagger 2.0`}}
}

test_empty_lists_and_undefined_schemes_pass if {
	count(rule.violations) == 0 with input as doc("openapi", [{"name": "key", "scopes": []}, {"name": "missing", "scopes": ["a"]}])
}
