package specgate.rules["path-parameters-required_test"]

import data.specgate.rules["path-parameters-required"] as rule

param(name, loc, node, source) := {"name": name, "in": loc, "required": object.get(node, "required", false) == true, "node": object.union(node, {"name": name, "in": loc}), "source": source}

test_missing_required_points_at_the_parameter if {
	src := ["paths", "/users/{id}", "parameters", 0]
	vs := rule.violations with input as {"parameters": [param("id", "path", {}, src)]}
	vs == {{"path": src, "message": `path parameter "id" is not marked required: true; path parameters are always required`}}
}

test_required_false_points_at_the_field if {
	vs := rule.violations with input as {"parameters": [param("id", "path", {"required": false}, ["components", "parameters", "id"])]}
	vs == {{"path": ["components", "parameters", "id", "required"], "message": `path parameter "id" is not marked required: true; path parameters are always required`}}
}

test_required_as_a_string_is_not_true if {
	vs := rule.violations with input as {"parameters": [param("id", "path", {"required": "true"}, ["p"])]}
	vs == {{"path": ["p", "required"], "message": `path parameter "id" is not marked required: true; path parameters are always required`}}
}

test_required_path_parameters_and_optional_query_parameters_pass if {
	count(rule.violations) == 0 with input as {"parameters": [
		param("id", "path", {"required": true}, ["p", 0]),
		param("limit", "query", {}, ["p", 1]),
		param("X-Trace", "header", {"required": false}, ["p", 2]),
	]}
}
