package specgate.rules["servers-defined_test"]

import data.specgate.rules["servers-defined"] as rule

op(servers) := {"path": "/p", "method": "get", "servers": servers}

msg3 := "the document declares no servers, so clients take the API to be at \"/\" relative to where the document is served; give the API's base URL"

test_oas3_missing_servers if {
	vs := rule.violations with input as {"format": "openapi", "document": {"openapi": "3.1.0"}, "operations": [op([])]}
	vs == {{"path": [], "message": msg3}}
}

test_oas3_empty_servers if {
	vs := rule.violations with input as {"format": "openapi", "document": {"servers": []}, "operations": [op([{"url": "https://a.dev"}]), op([])]}
	vs == {{"path": ["servers"], "message": msg3}}
}

test_oas3_servers_on_every_operation_pass if {
	count(rule.violations) == 0 with input as {"format": "openapi", "document": {}, "operations": [op([{"url": "https://a.dev"}])]}
}

test_oas3_without_operations_passes if {
	count(rule.violations) == 0 with input as {"format": "openapi", "document": {}, "operations": []}
}

test_swagger_host_and_schemes if {
	vs := rule.violations with input as {"format": "swagger", "document": {"swagger": "2.0", "schemes": []}, "operations": [op([])]}
	vs == {
		{"path": [], "message": "the document declares no host, so clients take the API to be on the host that serves the document; give the API's host"},
		{"path": ["schemes"], "message": "the document declares no schemes, so clients use the scheme the document was fetched with; list https"},
	}
}

test_swagger_complete_passes if {
	count(rule.violations) == 0 with input as {"format": "swagger", "document": {"host": "api.acme.dev", "schemes": ["https"]}, "operations": [op([])]}
}
