package specgate.rules["servers-use-https_test"]

import data.specgate.rules["servers-use-https"] as rule

server(i, url, variables) := {"url": url, "node": {"url": url, "variables": variables}, "source": ["servers", i]}

doc(servers) := {"format": "openapi", "servers": servers, "operations": [], "document": {}}

test_http_server if {
	vs := rule.violations with input as doc([server(0, "http://api.example.com/v1", {}), server(1, "https://api.example.com", {})])
	vs == {{"path": ["servers", 0, "url"], "message": "server URL http://api.example.com/v1 is not HTTPS"}}
}

test_relative_and_local_servers_pass if {
	count(rule.violations) == 0 with input as doc([
		server(0, "/v1", {}),
		server(1, "http://localhost:8080", {}),
		server(2, "http://127.0.0.1/api", {}),
		server(3, "http://{host}:{port}", {"host": {"default": "localhost"}, "port": {"default": 8080}}),
	])
}

test_variables_take_their_defaults if {
	vs := rule.violations with input as doc([server(0, "http://{region}.example.com", {"region": {"default": "eu"}})])
	vs == {{"path": ["servers", 0, "url"], "message": "server URL http://eu.example.com is not HTTPS"}}
}

test_scheme_variable_allowing_http if {
	vs := rule.violations with input as doc([
		server(0, "{scheme}://api.example.com", {"scheme": {"default": "https", "enum": ["https", "http"]}}),
		server(1, "{scheme}://api.example.com", {"scheme": {"default": "https", "enum": ["https"]}}),
	])
	vs == {{"path": ["servers", 0, "variables", "scheme"], "message": `server URL {scheme}://api.example.com lets variable "scheme" choose http instead of HTTPS`}}
}

test_operation_servers if {
	op := {"servers": [server(0, "http://files.example.com", {})]}
	vs := rule.violations with input as object.union(doc([]), {"operations": [op, op]})
	count(vs) == 1
}

test_swagger_schemes if {
	vs := rule.violations with input as {"format": "swagger", "servers": [], "operations": [], "document": {"host": "api.example.com", "schemes": ["https", "http"]}}
	vs == {{"path": ["schemes", 1], "message": "the API is served over http, not HTTPS (schemes)"}}
}

test_swagger_local_host_passes if {
	count(rule.violations) == 0 with input as {"format": "swagger", "servers": [], "operations": [], "document": {"host": "localhost:3000", "schemes": ["http"]}}
}
