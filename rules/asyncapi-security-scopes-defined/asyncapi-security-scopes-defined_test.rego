package specgate.rules["asyncapi-security-scopes-defined_test"]

import data.specgate.rules["asyncapi-security-scopes-defined"] as rule

test_asyncapi2_requirements if {
	doc := {"components": {"securitySchemes": {
		"oauth": {"type": "oauth2", "flows": {"implicit": {"scopes": {"read": "", "write": ""}}, "password": {"scopes": {"admin": ""}}}},
		"oidc": {"type": "openIdConnect"},
	}}}
	servers := [{"source": ["servers", "prod"], "node": {"security": [{"oauth": ["read", "admin", "delete"]}, {"oidc": ["profile"]}, {"missing": ["x"]}]}}]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "servers": servers, "asyncOperations": [], "messages": []}
	vs1 == {{
		"path": ["servers", "prod", "security", 0, "oauth", 2],
		"message": `server "prod" requires scope "delete" of security scheme "oauth", which its flows do not declare`,
	}}
}

test_asyncapi3_schemes if {
	doc := {"components": {"securitySchemes": {
		"oauth": {"type": "oauth2", "flows": {"clientCredentials": {"availableScopes": {"read": ""}}}, "scopes": ["read", "write"]},
		"ok": {"type": "oauth2", "flows": {"implicit": {"availableScopes": {"a": ""}}}, "scopes": ["a"]},
	}}}
	ops := [{"id": "send", "action": "send", "source": ["operations", "send"], "node": {"security": [
		{"$ref": "#/components/securitySchemes/oauth"},
		{"type": "oauth2", "flows": {"implicit": {"availableScopes": {}}}, "scopes": ["x"]},
	]}}]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": doc, "servers": [], "asyncOperations": ops, "messages": []}
	vs2 == {
		{"path": ["components", "securitySchemes", "oauth", "scopes", 1], "message": `security scheme "oauth" requires scope "write", which its flows do not declare in availableScopes`},
		{"path": ["operations", "send", "security", 1, "scopes", 0], "message": `the security scheme written in the security of operation "send" requires scope "x", which its flows do not declare in availableScopes`},
	}
}
