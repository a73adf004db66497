package specgate.rules["server-not-example_test"]

import data.specgate.rules["server-not-example"] as rule

server(url, i) := {"url": url, "source": ["servers", i]}

run(urls) := vs if vs := rule.violations with input as {"format": "openapi", "servers": [server(u, i) | some i, u in urls], "operations": [], "webhooks": [], "callbacks": []}

test_example_domains if {
	vs := run(["https://api.example.com/v1", "http://EXAMPLE.org", "https://user@{region}.example.net:8443/x", "https://shop.example", "https://example.com"])
	vs == {
		{"path": ["servers", 0, "url"], "message": "server URL https://api.example.com/v1 points at api.example.com, a domain reserved for examples"},
		{"path": ["servers", 1, "url"], "message": "server URL http://EXAMPLE.org points at example.org, a domain reserved for examples"},
		{"path": ["servers", 2, "url"], "message": "server URL https://user@{region}.example.net:8443/x points at {region}.example.net, a domain reserved for examples"},
		{"path": ["servers", 3, "url"], "message": "server URL https://shop.example points at shop.example, a domain reserved for examples"},
		{"path": ["servers", 4, "url"], "message": "server URL https://example.com points at example.com, a domain reserved for examples"},
	}
}

test_real_and_relative_servers_pass if {
	count(run(["https://api.acme.dev", "/v1", "https://myexample.com", "https://example.com.acme.dev", "https://api.example.co", "{scheme}://developer.uspto.gov/ds-api"])) == 0
}

test_swagger_host if {
	vs := rule.violations with input as {"format": "swagger", "document": {"host": "api.example.com:8080"}}
	vs == {{"path": ["host"], "message": "host api.example.com:8080 is a domain reserved for examples"}}
}
