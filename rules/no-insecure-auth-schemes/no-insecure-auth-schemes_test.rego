package specgate.rules["no-insecure-auth-schemes_test"]

import data.specgate.rules["no-insecure-auth-schemes"] as rule

scheme(name, type, s) := {"name": name, "type": type, "scheme": s, "source": ["components", "securitySchemes", name]}

test_negotiate_and_oauth1 if {
	vs := rule.violations with input as {"securitySchemes": [scheme("w", "http", "negotiate"), scheme("o", "http", "oauth")]}
	vs == {
		{"path": ["components", "securitySchemes", "w", "scheme"], "message": `security scheme "w" uses the outdated HTTP authentication scheme Negotiate, which falls back to NTLM`},
		{"path": ["components", "securitySchemes", "o", "scheme"], "message": `security scheme "o" uses the outdated HTTP authentication scheme OAuth 1.0, superseded by OAuth 2.0`},
	}
}

test_modern_schemes_pass if {
	count(rule.violations) == 0 with input as {"securitySchemes": [scheme("b", "http", "bearer"), scheme("o", "oauth2", ""), scheme("basic", "http", "basic")]}
}
