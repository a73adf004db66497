package specgate.rules["no-server-url-credentials_test"]

import data.specgate.rules["no-server-url-credentials"] as rule

server(i, url) := {"url": url, "source": ["servers", i]}

test_userinfo_is_reported_without_the_secret if {
	vs := rule.violations with input as {"format": "openapi", "operations": [], "servers": [
		server(0, "https://deploy:s3cret@api.example.com/v1"),
		server(1, "https://ghp_token@api.example.com"),
		server(2, "https://api.example.com/users/@me"),
	]}
	vs == {
		{"path": ["servers", 0, "url"], "message": "server URL https://api.example.com/v1 carries credentials before the host"},
		{"path": ["servers", 1, "url"], "message": "server URL https://api.example.com carries credentials before the host"},
	}
}

test_templated_userinfo if {
	vs := rule.violations with input as {"format": "openapi", "operations": [], "servers": [server(0, "{scheme}://{user}:{password}@api.example.com")]}
	count(vs) == 1
}

test_swagger_host if {
	vs := rule.violations with input as {"format": "swagger", "operations": [], "servers": [{"url": "https://admin:pw@api.example.com/v1", "source": ["host"]}]}
	vs == {{"path": ["host"], "message": "server URL https://api.example.com/v1 carries credentials before the host"}}
}

test_plain_urls_pass if {
	count(rule.violations) == 0 with input as {"format": "openapi", "operations": [], "servers": [server(0, "/v1"), server(1, "https://api.example.com?x=a@b")]}
}
