package specgate.rules["unsafe-operation-no-anonymous_test"]

import data.specgate.rules["unsafe-operation-no-anonymous"] as rule

requirement(root, alternatives) := {"source": root, "alternatives": [{"source": array.concat(root, [i]), "schemes": [{"name": n, "scopes": []} | some n in alt]} | some i, alt in alternatives]}

op(path, method, node, security) := {"path": path, "method": method, "webhook": "", "callback": "", "node": node, "security": security, "source": ["paths", path, method]}

test_own_optional_requirement if {
	sec := requirement(["paths", "/pets", "post", "security"], [["oauth"], []])
	vs := rule.violations with input as {"security": null, "operations": [op("/pets", "post", {"security": []}, sec)]}
	vs == {{"path": ["paths", "/pets", "post", "security", 1], "message": "POST /pets changes data but its security requirement also allows anonymous calls ({})"}}
}

test_inherited_optional_requirement_is_reported_once if {
	sec := requirement(["security"], [[], ["key"]])
	vs := rule.violations with input as {"security": sec, "operations": [
		op("/b", "delete", {}, sec), op("/a", "put", {}, sec), op("/a", "get", {}, sec),
	]}
	vs == {{"path": ["security", 0], "message": "the document's security requirement allows anonymous calls ({}) to 2 unsafe operations that inherit it, such as DELETE /b"}}
}

test_only_anonymous_is_left_to_the_other_rule if {
	sec := requirement(["security"], [[]])
	count(rule.violations) == 0 with input as {"security": sec, "operations": [op("/a", "post", {}, sec)]}
}

test_required_authentication_passes if {
	sec := requirement(["security"], [["key"], ["oauth"]])
	count(rule.violations) == 0 with input as {"security": sec, "operations": [op("/a", "post", {}, sec)]}
}
