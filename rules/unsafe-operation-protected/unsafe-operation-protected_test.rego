package specgate.rules["unsafe-operation-protected_test"]

import data.specgate.rules["unsafe-operation-protected"] as rule

requirement(alternatives) := {"alternatives": [{"schemes": [{"name": n, "scopes": []} | some n in alt]} | some alt in alternatives]}

op(method, node, security) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "node": node, "security": security, "source": ["paths", "/pets", method]}

test_no_requirement_anywhere if {
	vs := rule.violations with input as {"operations": [op("post", {}, null), op("get", {}, null)]}
	vs == {{"path": ["paths", "/pets", "post"], "message": "POST /pets changes data but is not protected: it has no security requirement, and the document declares none"}}
}

test_own_empty_requirement if {
	vs := rule.violations with input as {"operations": [
		op("delete", {"security": []}, requirement([])),
		op("put", {"security": [{}]}, requirement([[]])),
	]}
	vs == {
		{"path": ["paths", "/pets", "delete", "security"], "message": "DELETE /pets changes data but is not protected: it declares an empty security requirement"},
		{"path": ["paths", "/pets", "put", "security"], "message": "PUT /pets changes data but is not protected: it declares an empty security requirement"},
	}
}

test_inherited_empty_requirement if {
	vs := rule.violations with input as {"operations": [op("patch", {}, requirement([[]]))]}
	vs == {{"path": ["paths", "/pets", "patch"], "message": "PATCH /pets changes data but is not protected: it inherits the document's empty security requirement"}}
}

test_protected_operations_pass if {
	count(rule.violations) == 0 with input as {"operations": [
		op("post", {}, requirement([["oauth"]])),
		op("put", {"security": [{}, {"key": []}]}, requirement([[], ["key"]])),
		op("options", {}, null),
	]}
}
