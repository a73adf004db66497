package specgate.rules["boolean-parameter-prefix_test"]

import data.specgate.rules["boolean-parameter-prefix"] as rule

param(name, where, type) := {"name": name, "in": where, "schema": {"type": type}, "source": ["components", "parameters", name]}

test_unprefixed_flags if {
	vs := rule.violations with input as {"parameters": [
		param("archived", "query", "boolean"),
		param("isArchived", "query", "boolean"),
		param("has_children", "query", "boolean"),
		param("can-edit", "cookie", "boolean"),
		param("island", "query", "boolean"),
		param("nullable", "query", ["boolean", "null"]),
		param("limit", "query", "integer"),
		param("X-Dry-Run", "header", "boolean"),
		param("mixed", "query", ["boolean", "string"]),
	]}
	vs == {
		{"path": ["components", "parameters", "archived", "name"], "message": "boolean query parameter \"archived\" does not start with is, has, can or should"},
		{"path": ["components", "parameters", "island", "name"], "message": "boolean query parameter \"island\" does not start with is, has, can or should"},
		{"path": ["components", "parameters", "nullable", "name"], "message": "boolean query parameter \"nullable\" does not start with is, has, can or should"},
	}
}
