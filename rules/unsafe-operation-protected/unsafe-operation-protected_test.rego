package specgate.rules["unsafe-operation-protected_test"]

import data.specgate.rules["unsafe-operation-protected"] as rule

requirement(alternatives) := {"alternatives": [{"schemes": [{"name": n, "scopes": []} | some n in alt]} | some alt in alternatives]}

op(method, node, security) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "node": node, "security": security, "source": ["paths", "/pets", method]}

secured := op("put", {"security": [{"key": []}]}, requirement([["key"]]))

test_no_requirement_on_the_operation_nor_the_document if {
	vs := rule.violations with input as {"security": null, "operations": [op("post", {}, null), op("get", {}, null), secured]}
	vs == {{"path": ["paths", "/pets", "post"], "message": "POST /pets changes data but is not protected: it has no security requirement, and the document declares none"}}
}

test_api_without_any_requirement_is_reported_once if {
	vs := rule.violations with input as {"security": null, "operations": [op("post", {}, null), op("delete", {}, null), op("get", {}, null)]}
	vs == {{"path": ["paths"], "message": "the API declares no security requirement at all: none of its 2 unsafe operations (such as DELETE /pets) is protected"}}
}

test_own_empty_requirement if {
	vs := rule.violations with input as {"security": null, "operations": [
		op("delete", {"security": []}, requirement([])),
		op("put", {"security": [{}]}, requirement([[]])),
	]}
	vs == {
		{"path": ["paths", "/pets", "delete", "security"], "message": "DELETE /pets changes data but is not protected: it declares an empty security requirement"},
		{"path": ["paths", "/pets", "put", "security"], "message": "PUT /pets changes data but is not protected: it declares an empty security requirement"},
	}
}

test_inherited_empty_requirement if {
	vs := rule.violations with input as {"security": requirement([[]]), "operations": [op("patch", {}, requirement([[]]))]}
	vs == {{"path": ["paths", "/pets", "patch"], "message": "PATCH /pets changes data but is not protected: it inherits the document's empty security requirement"}}
}

test_protected_operations_pass if {
	count(rule.violations) == 0 with input as {"security": requirement([["oauth"]]), "operations": [
		op("post", {}, requirement([["oauth"]])),
		op("put", {"security": [{}, {"key": []}]}, requirement([[], ["key"]])),
		op("options", {}, null),
	]}
}
