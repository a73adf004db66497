package specgate.rules["response-validation-error-defined_test"]

import data.specgate.rules["response-validation-error-defined"] as rule

op(method, params, body, statuses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "parameters": params, "requestBody": body, "responses": [{"status": s} | some s in statuses], "source": ["paths", "/pets", method]}

test_input_without_validation_error if {
	vs := rule.violations with input as {"operations": [
		op("post", [], {"content": []}, ["201", "default"]),
		op("get", [{"name": "limit"}], null, ["200", "404"]),
		op("put", [{"name": "id"}], null, ["200", "422"]),
		op("patch", [{"name": "id"}], null, ["200", "400"]),
	]}
	vs == {
		{"path": ["paths", "/pets", "post", "responses"], "message": "POST /pets takes input but describes no 400 or 422 response for invalid input"},
		{"path": ["paths", "/pets", "get", "responses"], "message": "GET /pets takes input but describes no 400 or 422 response for invalid input"},
	}
}

test_described_or_no_input_passes if {
	count(rule.violations) == 0 with input as {"operations": [
		op("post", [], {"content": []}, ["201", "422"]),
		op("put", [{"name": "id"}], null, ["200", "400"]),
		op("patch", [{"name": "id"}], null, ["200", "4XX"]),
		op("get", [], null, ["200"]),
	]}
}

test_api_without_validation_errors_is_reported_once if {
	vs := rule.violations with input as {"operations": [op("post", [], {"content": []}, ["201"]), op("put", [{"name": "id"}], null, ["200"]), op("get", [], null, ["200"])]}
	vs == {{"path": ["paths"], "message": "no 400 or 422 response for invalid input in 2 of 2 operations that take input, such as POST /pets"}}
}
