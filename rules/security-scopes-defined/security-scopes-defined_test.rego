package specgate.rules["security-scopes-defined_test"]

import data.specgate.rules["security-scopes-defined"] as rule

requirement(root, scheme, scopes) := {"source": root, "alternatives": [{"source": array.concat(root, [0]), "schemes": [{"name": scheme, "scopes": scopes}]}]}

oauth(name, node) := {"name": name, "type": "oauth2", "node": node}

oas3 := oauth("oauth", {"flows": {"clientCredentials": {"scopes": {"read": "", "write": ""}}, "implicit": {"scopes": {"admin": ""}}}})

doc(security, ops, schemes) := {"format": "openapi", "security": security, "operations": ops, "webhooks": [], "callbacks": [], "securitySchemes": schemes}

test_undefined_scope_in_any_flow if {
	vs := rule.violations with input as doc(requirement(["security"], "oauth", ["read", "admin", "Write", "delete"]), [], [oas3])
	vs == {
		{"path": ["security", 0, "oauth", 2], "message": `scope "Write" is not defined by security scheme "oauth" (did you mean "write"?)`},
		{"path": ["security", 0, "oauth", 3], "message": `scope "delete" is not defined by security scheme "oauth"`},
	}
}

test_operation_requirement_and_swagger_scopes if {
	swagger := oauth("petstore", {"flow": "implicit", "scopes": {"write:pets": ""}})
	op := {"node": {"security": []}, "security": requirement(["paths", "/a", "get", "security"], "petstore", ["read:pets"])}
	vs := rule.violations with input as doc(null, [op], [swagger])
	vs == {{"path": ["paths", "/a", "get", "security", 0, "petstore", 0], "message": `scope "read:pets" is not defined by security scheme "petstore"`}}
}

test_other_schemes_and_undefined_schemes_are_not_checked if {
	key := {"name": "key", "type": "apiKey", "node": {}}
	count(rule.violations) == 0 with input as doc(requirement(["security"], "key", ["admin"]), [], [key])
	count(rule.violations) == 0 with input as doc(requirement(["security"], "missing", ["admin"]), [], [])
}
