package specgate.rules["response-429-defined_test"]

import data.specgate.rules["response-429-defined"] as rule

op(method, statuses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "responses": [{"status": s} | some s in statuses], "source": ["paths", "/pets", method]}

test_missing_429 if {
	vs := rule.violations with input as {"operations": [op("get", ["200", "default"]), op("put", ["200", "429"]), op("post", ["201", "4XX"])]}
	vs == {{"path": ["paths", "/pets", "get", "responses"], "message": "GET /pets describes no 429 response for clients over their rate limit"}}
}

test_api_without_429_is_reported_once if {
	vs := rule.violations with input as {"operations": [op("get", ["200"]), op("put", ["200"])]}
	vs == {{"path": ["paths"], "message": "no 429 response for clients over their rate limit in 2 of 2 operations, such as GET /pets"}}
}
