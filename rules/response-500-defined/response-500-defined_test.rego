package specgate.rules["response-500-defined_test"]

import data.specgate.rules["response-500-defined"] as rule

op(method, statuses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "responses": [{"status": s} | some s in statuses], "source": ["paths", "/pets", method]}

test_missing_server_error if {
	vs := rule.violations with input as {"operations": [
		op("get", ["200", "404"]),
		op("put", ["200", "500"]),
		op("post", ["201", "5xx"]),
		op("delete", ["204", "default"]),
	]}
	vs == {{"path": ["paths", "/pets", "get", "responses"], "message": "GET /pets describes no response for server errors (500, 5XX or default)"}}
}

test_api_without_server_errors_is_reported_once if {
	vs := rule.violations with input as {"operations": [op("get", ["200"]), op("put", ["200"])]}
	vs == {{"path": ["paths"], "message": "no response for server errors (500, 5XX or default) in 2 of 2 operations, such as GET /pets"}}
}
