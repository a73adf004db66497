package specgate.rules["oauth-urls-https_test"]

import data.specgate.rules["oauth-urls-https"] as rule

scheme(name, type, node) := {"name": name, "type": type, "node": node, "source": ["s", name]}

test_flow_urls if {
	s := scheme("o", "oauth2", {"flows": {
		"authorizationCode": {"authorizationUrl": "http://a.example.com/auth", "tokenUrl": "https://a.example.com/token", "refreshUrl": "HTTP://a.example.com/refresh"},
		"clientCredentials": {"tokenUrl": "http://localhost:8080/token"},
	}})
	vs := rule.violations with input as {"securitySchemes": [s]}
	vs == {
		{"path": ["s", "o", "flows", "authorizationCode", "authorizationUrl"], "message": `authorizationUrl of the authorizationCode flow of security scheme "o" is not HTTPS: http://a.example.com/auth`},
		{"path": ["s", "o", "flows", "authorizationCode", "refreshUrl"], "message": `refreshUrl of the authorizationCode flow of security scheme "o" is not HTTPS: HTTP://a.example.com/refresh`},
	}
}

test_swagger_and_openid_urls if {
	vs := rule.violations with input as {"securitySchemes": [
		scheme("sw", "oauth2", {"flow": "accessCode", "authorizationUrl": "http://x.example.com/a", "tokenUrl": "/token"}),
		scheme("oidc", "openIdConnect", {"openIdConnectUrl": "http://id.example.com/.well-known/openid-configuration"}),
	]}
	{v.path | some v in vs} == {["s", "sw", "authorizationUrl"], ["s", "oidc", "openIdConnectUrl"]}
}

test_loopback_hosts_pass if {
	count(rule.violations) == 0 with input as {"securitySchemes": [scheme("o", "oauth2", {"flows": {"password": {
		"tokenUrl": "http://127.0.0.1:9000/token",
		"refreshUrl": "http://[::1]/refresh",
		"authorizationUrl": "http://auth.localhost/authorize",
	}}})]}
}
