package specgate.rules["safe-operation-protected_test"]

import data.specgate.rules["safe-operation-protected"] as rule

requirement(alternatives) := {"alternatives": [{"schemes": [{"name": n, "scopes": []} | some n in alt]} | some alt in alternatives]}

op(method, node, security) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "node": node, "security": security, "source": ["paths", "/pets", method]}

test_reads_without_requirement if {
	vs := rule.violations with input as {"security": null, "operations": [op("get", {}, null), op("head", {"security": []}, requirement([])), op("post", {}, null)]}
	vs == {
		{"path": ["paths", "/pets", "get"], "message": "GET /pets is not protected: it has no security requirement, and the document declares none"},
		{"path": ["paths", "/pets", "head", "security"], "message": "HEAD /pets is not protected: it declares an empty security requirement"},
	}
}

test_api_without_any_requirement_is_reported_once if {
	vs := rule.violations with input as {"security": null, "operations": [op("get", {}, null), op("head", {}, null), op("post", {}, null)]}
	vs == {{"path": ["paths"], "message": "the API declares no security requirement at all: none of its 2 read operations (such as GET /pets) is protected"}}
}

test_protected_reads_pass if {
	count(rule.violations) == 0 with input as {"security": null, "operations": [op("get", {}, requirement([["key"]])), op("query", {"security": [{"key": []}]}, requirement([["key"]]))]}
}
