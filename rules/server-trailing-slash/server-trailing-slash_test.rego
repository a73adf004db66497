package specgate.rules["server-trailing-slash_test"]

import data.specgate.rules["server-trailing-slash"] as rule

server(url) := {"url": url, "node": {"url": url}, "source": ["servers", 0]}

test_clean_urls_pass if {
	count(rule.violations) == 0 with input as {"format": "openapi", "servers": [server("/"), server("https://x.org/v1")], "operations": [], "webhooks": [], "callbacks": []}
}

test_trailing_slash if {
	vs := rule.violations with input as {"format": "openapi", "servers": [server("https://x.org/v1/")], "operations": [], "webhooks": [], "callbacks": []}
	vs == {{"path": ["servers", 0, "url"], "message": "server URL https://x.org/v1/ ends with a slash; paths appended to it get a double slash"}}
}

test_swagger if {
	vs := rule.violations with input as {"format": "swagger", "servers": [], "operations": [], "webhooks": [], "callbacks": [], "document": {"host": "x.org/api", "basePath": "/v1/"}}
	vs == {
		{"path": ["basePath"], "message": "basePath /v1/ ends with a slash; paths appended to it get a double slash"},
		{"path": ["host"], "message": "host x.org/api contains a slash; host is a host name and port only, paths go in basePath"},
	}
}
