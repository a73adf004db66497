package specgate.rules["page-optional_test"]

import data.specgate.rules["page-optional"] as rule

param(name, required) := {
	"name": name, "in": "query", "required": required,
	"schema": {"type": "integer", "minimum": 1, "default": 1},
	"schemaSource": ["paths", "/pets", "get", "parameters", 0],
	"source": ["paths", "/pets", "get", "parameters", 0],
}

run(params) := {"operations": [{"method": "get", "path": "/pets", "parameters": params}]}

test_optional_passes if {
	count(rule.violations) == 0 with input as run([param("page", false)])
}

test_required_is_reported if {
	vs := rule.violations with input as run([param("Page", true)])
	vs == {{
		"path": ["paths", "/pets", "get", "parameters", 0, "required"],
		"message": "query parameter \"Page\" of GET /pets must be optional (required: false)",
	}}
}

test_page_size_is_not_judged if {
	count(rule.violations) == 0 with input as run([param("page_size", true), param("pages", true)])
}
