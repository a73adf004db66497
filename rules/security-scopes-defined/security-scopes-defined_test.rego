package specgate.rules["security-scopes-defined_test"]

import data.specgate.rules["security-scopes-defined"] as rule

oauth(name) := {"name": name, "type": "oauth2", "node": {"type": "oauth2", "flows": {
	"implicit": {"scopes": {"read:pets": "read"}},
	"clientCredentials": {"scopes": {"write:pets": "write"}},
}}}

req(source, name, scopes) := {"alternatives": [{"source": source, "schemes": [{"name": name, "scopes": scopes}]}]}

doc(security, schemes) := {"security": security, "securitySchemes": schemes, "operations": [], "webhooks": [], "callbacks": []}

test_defined_scopes_pass if {
	count(rule.violations) == 0 with input as doc(req(["security", 0], "auth", ["read:pets", "write:pets"]), [oauth("auth")])
}

test_undefined_scope if {
	vs := rule.violations with input as doc(req(["security", 0], "auth", ["read:pets", "pets:write"]), [oauth("auth")])
	vs == {{"path": ["security", 0, "auth", 1], "message": `scope "pets:write" is not defined by the OAuth2 scheme "auth" (defined: read:pets, write:pets)`}}
}

test_other_schemes_are_not_checked if {
	oidc := {"name": "oidc", "type": "openIdConnect", "node": {}}
	count(rule.violations) == 0 with input as doc(req(["security", 0], "oidc", ["profile"]), [oidc])
}

test_swagger_scopes if {
	s := {"name": "auth", "type": "oauth2", "node": {"type": "oauth2", "scopes": {"read": "r"}}}
	count(rule.violations) == 1 with input as doc(req(["security", 0], "auth", ["read", "write"]), [s])
}
