package specgate.rules["server-no-trailing-slash_test"]

import data.specgate.rules["server-no-trailing-slash"] as rule

server(url, source) := {"url": url, "source": source}

run(servers, ops) := vs if vs := rule.violations with input as {"format": "openapi", "servers": servers, "operations": ops, "webhooks": [], "callbacks": []}

test_trailing_slash if {
	vs := run([server("https://api.example.com/v1/", ["servers", 0]), server("/", ["servers", 1]), server("https://api.example.com", ["servers", 2])], [])
	vs == {{"path": ["servers", 0, "url"], "message": "server URL https://api.example.com/v1/ ends with a slash; joined with a path it gives \"//\""}}
}

test_operation_servers_once if {
	s := server("https://files.example.com/", ["paths", "/f", "servers", 0])
	vs := run([], [{"servers": [s]}, {"servers": [s]}])
	vs == {{"path": ["paths", "/f", "servers", 0, "url"], "message": "server URL https://files.example.com/ ends with a slash; joined with a path it gives \"//\""}}
}

test_swagger_host_and_base_path if {
	vs := rule.violations with input as {"format": "swagger", "document": {"host": "api.example.com/", "basePath": "/v1/"}}
	vs == {
		{"path": ["host"], "message": "host api.example.com/ ends with a slash; joined with a path it gives \"//\""},
		{"path": ["basePath"], "message": "basePath /v1/ ends with a slash; joined with a path it gives \"//\""},
	}
}

test_swagger_root_base_path_passes if {
	count(rule.violations) == 0 with input as {"format": "swagger", "document": {"host": "api.example.com", "basePath": "/"}}
}
