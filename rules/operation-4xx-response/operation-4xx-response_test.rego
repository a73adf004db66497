package specgate.rules["operation-4xx-response_test"]

import data.specgate.rules["operation-4xx-response"] as rule

op(method, statuses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "parameters": [{"name": "limit", "in": "query"}], "requestBody": null, "responses": [{"status": s} | some s in statuses], "source": ["paths", "/pets", method]}

test_exceptions_are_reported_each if {
	vs := rule.violations with input as {"operations": [
		op("get", ["200", "404"]),
		op("post", ["201", "default"]),
		op("put", ["200", "4XX"]),
		op("delete", ["204", "4xx"]),
	]}
	vs == {{"path": ["paths", "/pets", "post", "responses"], "message": "POST /pets describes no client error (4xx) response"}}
}

test_operations_without_responses_are_left_alone if {
	count(rule.violations) == 0 with input as {"operations": [op("get", []), op("post", ["400"])]}
}

test_default_and_other_classes_do_not_count if {
	vs := rule.violations with input as {"operations": [op("get", ["200", "default", "500", "40"]), op("post", ["201", "401"])]}
	vs == {{"path": ["paths", "/pets", "get", "responses"], "message": "GET /pets describes no client error (4xx) response"}}
}

test_most_operations_lacking_is_one_finding if {
	vs := rule.violations with input as {"operations": [op("get", ["200"]), op("post", ["201", "default"]), op("put", ["200", "422"])]}
	vs == {{"path": ["paths"], "message": "no client error (4xx) response in 2 of 3 operations, such as GET /pets"}}
}

test_operations_without_input_are_left_alone if {
	bare := object.union(op("get", ["200"]), {"parameters": []})
	count(rule.violations) == 0 with input as {"operations": [bare]}
	body := object.union(bare, {"method": "post", "requestBody": {"content": []}, "source": ["paths", "/pets", "post"]})
	rule.violations == {{"path": ["paths", "/pets", "post", "responses"], "message": "POST /pets describes no client error (4xx) response"}} with input as {"operations": [bare, body, op("put", ["200", "404"])]}
}
