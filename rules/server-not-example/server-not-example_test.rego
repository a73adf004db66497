package specgate.rules["server-not-example_test"]

import data.specgate.rules["server-not-example"] as rule

server(url) := {"url": url, "node": {"url": url}, "source": ["servers", 0]}

doc(urls) := {"format": "openapi", "servers": [server(u) | some u in urls], "operations": [], "webhooks": [], "callbacks": []}

test_real_hosts_pass if {
	count(rule.violations) == 0 with input as doc(["https://api.stripe.com", "/v1", "https://example.company.io", "https://{host}/v1"])
}

test_example_host if {
	vs := rule.violations with input as doc(["https://API.Example.com:8443/v1"])
	vs == {{"path": ["servers", 0, "url"], "message": "server URL https://API.Example.com:8443/v1 points at api.example.com, a host reserved for examples"}}
}

test_swagger_host if {
	vs := rule.violations with input as {"format": "swagger", "servers": [], "operations": [], "webhooks": [], "callbacks": [], "document": {"host": "petstore.example.org:80"}}
	count(vs) == 1
}
