package specgate.rules["path-parameters-defined_test"]

import data.specgate.rules["path-parameters-defined"] as rule

op(path, method, params) := {"path": path, "method": method, "parameters": params, "source": ["paths", path, method]}

param(name, loc, source) := {"name": name, "in": loc, "required": true, "source": source}

test_defined_parameters_pass if {
	count(rule.violations) == 0 with input as {"operations": [
		op("/users/{user_id}/posts/{post_id}", "get", [
			param("user_id", "path", ["paths", "/users/{user_id}/posts/{post_id}", "parameters", 0]),
			param("post_id", "path", ["components", "parameters", "post"]),
			param("limit", "query", ["paths", "/users/{user_id}/posts/{post_id}", "get", "parameters", 0]),
		]),
		op("/users", "get", []),
	]}
}

test_template_without_parameter if {
	vs := rule.violations with input as {"operations": [op("/users/{userId}", "get", [param("limit", "query", ["q"])])]}
	vs == {{"path": ["paths", "/users/{userId}", "get"], "message": `GET /users/{userId} has no path parameter "userId" for the {userId} template of its path`}}
}

test_parameter_in_another_location_does_not_count if {
	vs := rule.violations with input as {"operations": [op("/users/{id}", "delete", [param("id", "query", ["q"])])]}
	vs == {{"path": ["paths", "/users/{id}", "delete"], "message": `DELETE /users/{id} has no path parameter "id" for the {id} template of its path`}}
}

test_parameter_without_template if {
	src := ["paths", "/users", "parameters", 0]
	vs := rule.violations with input as {"operations": [
		op("/users", "get", [param("id", "path", src)]),
		op("/users", "post", [param("id", "path", src)]),
	]}
	vs == {{"path": src, "message": `path parameter "id" is not in the path /users; add a {id} template or remove the parameter`}}
}

test_names_are_case_sensitive if {
	src := ["paths", "/users/{userId}", "get", "parameters", 0]
	vs := rule.violations with input as {"operations": [op("/users/{userId}", "get", [param("userid", "path", src)])]}
	vs == {
		{"path": ["paths", "/users/{userId}", "get"], "message": `GET /users/{userId} has no path parameter "userId" for the {userId} template of its path`},
		{"path": src, "message": `path parameter "userid" is not in the path /users/{userId}; add a {userid} template or remove the parameter`},
	}
}

test_reusable_parameter_is_reported_once if {
	src := ["components", "parameters", "id"]
	vs := rule.violations with input as {"operations": [
		op("/a/{id}", "get", [param("id", "path", src)]),
		op("/b", "get", [param("id", "path", src)]),
		op("/c", "get", [param("id", "path", src)]),
		op("/c", "post", [param("id", "path", src)]),
	]}
	vs == {{"path": src, "message": `path parameter "id" is not in the paths /b and /c; add a {id} template or remove the parameter`}}
}

test_many_paths_are_counted if {
	src := ["components", "parameters", "id"]
	vs := rule.violations with input as {"operations": [op(sprintf("/p%d", [i]), "get", [param("id", "path", src)]) | some i in numbers.range(1, 87)]}
	vs == {{"path": src, "message": `path parameter "id" is not in the paths /p1, /p2, /p3 and 84 others; add a {id} template or remove the parameter`}}
}

test_empty_template_is_left_to_another_rule if {
	count(rule.violations) == 0 with input as {"operations": [op("/users/{}", "get", [])], "pathItems": []}
}

test_repeated_template if {
	vs := rule.violations with input as {"operations": [], "pathItems": [{"path": "/a/{id}/b/{id}", "source": ["paths", "/a/{id}/b/{id}"]}]}
	vs == {{"path": ["paths", "/a/{id}/b/{id}"], "message": "path /a/{id}/b/{id} uses the template {id} more than once; one path parameter cannot fill two segments"}}
}

test_template_repeated_three_times_is_one_finding_per_name if {
	vs := rule.violations with input as {"operations": [], "pathItems": [{"path": "/a/{id}/{x}/{id}/{x}/{id}", "source": ["paths", "/a/{id}/{x}/{id}/{x}/{id}"]}]}
	vs == {
		{"path": ["paths", "/a/{id}/{x}/{id}/{x}/{id}"], "message": "path /a/{id}/{x}/{id}/{x}/{id} uses the template {id} more than once; one path parameter cannot fill two segments"},
		{"path": ["paths", "/a/{id}/{x}/{id}/{x}/{id}"], "message": "path /a/{id}/{x}/{id}/{x}/{id} uses the template {x} more than once; one path parameter cannot fill two segments"},
	}
}

# The templates and the parameters are compared as sets: a repeated
# template that one parameter fills is not a missing parameter (the
# repetition is the third rule's finding), and the order of the
# parameters does not matter.
test_repeated_template_and_order_are_not_mismatches if {
	count(rule._mismatches) == 0 with input as {"operations": [
		op("/a/{id}/b/{id}", "get", [param("id", "path", ["p", 0])]),
		op("/a/{x}/b/{y}", "get", [param("y", "path", ["p", 1]), param("x", "path", ["p", 2])]),
	]}
}
