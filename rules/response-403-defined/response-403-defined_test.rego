package specgate.rules["response-403-defined_test"]

import data.specgate.rules["response-403-defined"] as rule

requirement(scopes) := {"alternatives": [{"schemes": [{"name": "oauth", "scopes": scopes}]}]}

op(method, statuses, security) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "security": security, "responses": [{"status": s} | some s in statuses], "source": ["paths", "/pets", method]}

test_scoped_operation_without_403 if {
	vs := rule.violations with input as {"operations": [op("delete", ["204", "401"], requirement(["admin"]))]}
	vs == {{"path": ["paths", "/pets", "delete", "responses"], "message": "DELETE /pets requires scopes but describes no 403 response for callers who lack them"}}
}

test_403_range_or_no_scopes_pass if {
	count(rule.violations) == 0 with input as {"operations": [
		op("delete", ["204", "403"], requirement(["admin"])),
		op("put", ["200", "4XX"], requirement(["write"])),
		op("get", ["200"], requirement([])),
		op("head", ["200"], null),
	]}
}

test_api_without_403_is_reported_once if {
	vs := rule.violations with input as {"operations": [op("get", ["200"], requirement(["read"])), op("delete", ["204"], requirement(["admin"]))]}
	vs == {{"path": ["paths"], "message": "no 403 response in 2 of 2 operations that require scopes, such as GET /pets"}}
}
