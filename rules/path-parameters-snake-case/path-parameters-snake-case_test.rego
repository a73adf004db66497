package specgate.rules["path-parameters-snake-case_test"]

import data.specgate.rules["path-parameters-snake-case"] as rule

param(name, loc, source) := {"name": name, "in": loc, "source": source}

test_camel_case_path_parameter if {
	vs := rule.violations with input as {"parameters": [param("userId", "path", ["paths", "/users/{userId}", "parameters", 0])]}
	vs == {{"path": ["paths", "/users/{userId}", "parameters", 0, "name"], "message": `path parameter "userId" is not snake_case (use "user_id")`}}
}

test_reusable_parameter_is_reported_where_defined if {
	vs := rule.violations with input as {"parameters": [param("Org-Name", "path", ["components", "parameters", "org"])]}
	vs == {{"path": ["components", "parameters", "org", "name"], "message": `path parameter "Org-Name" is not snake_case (use "org_name")`}}
}

test_no_suggestion_when_none_is_snake if {
	vs := rule.violations with input as {"parameters": [param("2fa", "path", ["parameters", "tfa"])]}
	vs == {{"path": ["parameters", "tfa", "name"], "message": `path parameter "2fa" is not snake_case`}}
}

test_snake_case_and_other_locations_pass if {
	count(rule.violations) == 0 with input as {"parameters": [
		param("user_id", "path", ["p", 0]),
		param("id", "path", ["p", 1]),
		param("v2", "path", ["p", 2]),
		param("pageSize", "query", ["p", 3]),
		param("X-Request-Id", "header", ["p", 4]),
	]}
}
