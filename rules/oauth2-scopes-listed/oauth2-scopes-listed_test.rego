package specgate.rules["oauth2-scopes-listed_test"]

import data.specgate.rules["oauth2-scopes-listed"] as rule

requirement(root, scheme, scopes) := {"source": root, "alternatives": [{"source": array.concat(root, [0]), "schemes": [{"name": scheme, "scopes": scopes}]}]}

schemes := [
	{"name": "oauth", "type": "oauth2", "node": {"flows": {"clientCredentials": {"scopes": {"read": ""}}}}},
	{"name": "bare", "type": "oauth2", "node": {"flows": {"clientCredentials": {"scopes": {}}}}},
	{"name": "key", "type": "apiKey", "node": {}},
]

test_empty_scopes_on_oauth if {
	op := {"node": {"security": []}, "security": requirement(["paths", "/a", "get", "security"], "oauth", [])}
	vs := rule.violations with input as {"security": requirement(["security"], "oauth", []), "operations": [op], "securitySchemes": schemes}
	vs == {
		{"path": ["security", 0, "oauth"], "message": `security requirement on OAuth 2.0 scheme "oauth" lists no scopes, so any token it issues is accepted`},
		{"path": ["paths", "/a", "get", "security", 0, "oauth"], "message": `security requirement on OAuth 2.0 scheme "oauth" lists no scopes, so any token it issues is accepted`},
	}
}

test_listed_scopes_and_other_schemes_pass if {
	count(rule.violations) == 0 with input as {"security": requirement(["security"], "oauth", ["read"]), "operations": [], "securitySchemes": schemes}
	count(rule.violations) == 0 with input as {"security": requirement(["security"], "bare", []), "operations": [], "securitySchemes": schemes}
	count(rule.violations) == 0 with input as {"security": requirement(["security"], "key", []), "operations": [], "securitySchemes": schemes}
}

test_inherited_requirement_is_not_reported_per_operation if {
	sec := requirement(["security"], "oauth", [])
	vs := rule.violations with input as {"security": sec, "operations": [{"node": {}, "security": sec}], "securitySchemes": schemes}
	count(vs) == 1
}
