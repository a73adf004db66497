package specgate.rules["server-variables-defined_test"]

import data.specgate.rules["server-variables-defined"] as rule

server(url, variables, source) := {"url": url, "node": {"url": url, "variables": variables}, "source": source}

doc(servers, ops) := {"format": "openapi", "servers": servers, "operations": ops, "webhooks": [], "callbacks": []}

test_defined_variables_pass if {
	count(rule.violations) == 0 with input as doc([server("https://{r}.x.org/{v}", {"r": {"default": "eu"}, "v": {"default": "1"}}, ["servers", 0])], [])
}

test_undefined_variable if {
	vs := rule.violations with input as doc([server("https://{r}.x.org/{v}", {"r": {"default": "eu"}}, ["servers", 0])], [])
	vs == {{"path": ["servers", 0, "url"], "message": "server URL https://{r}.x.org/{v} uses {v}, which is not defined in the server's variables"}}
}

test_operation_servers_are_checked_once if {
	s := server("https://{host}", {}, ["paths", "/a", "servers", 0])
	vs := rule.violations with input as doc([], [{"servers": [s]}, {"servers": [s]}])
	count(vs) == 1
}
