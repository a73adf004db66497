package specgate.rules["response-401-defined_test"]

import data.specgate.rules["response-401-defined"] as rule

requirement(alternatives) := {"alternatives": [{"schemes": [{"name": n, "scopes": []} | some n in alt]} | some alt in alternatives]}

op(method, statuses, security) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "security": security, "responses": [{"status": s} | some s in statuses], "source": ["paths", "/pets", method]}

test_authenticated_operation_without_401 if {
	vs := rule.violations with input as {"operations": [op("get", ["200", "default"], requirement([["bearer"], []]))]}
	vs == {{"path": ["paths", "/pets", "get", "responses"], "message": "GET /pets requires credentials but describes no 401 response"}}
}

test_401_or_range_passes if {
	count(rule.violations) == 0 with input as {"operations": [
		op("get", ["200", "401"], requirement([["bearer"]])),
		op("put", ["200", "4xx"], requirement([["bearer"]])),
	]}
}

test_public_operations_are_not_checked if {
	count(rule.violations) == 0 with input as {"operations": [op("get", ["200"], null), op("post", ["200"], requirement([[]]))]}
}

test_api_without_401_is_reported_once if {
	sec := requirement([["bearer"]])
	vs := rule.violations with input as {"operations": [op("get", ["200"], sec), op("put", ["200"], sec), op("head", ["200"], null)]}
	vs == {{"path": ["paths"], "message": "no 401 response in 2 of 2 operations that require credentials, such as GET /pets"}}
}
