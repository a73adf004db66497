package specgate.rules["page-optional_test"]

import data.specgate.rules["page-optional"] as rule

param(name, required) := {
	"name": name, "in": "query", "required": required,
	"schema": {"type": "integer", "minimum": 1, "default": 1},
	"schemaSource": ["paths", "/pets", "get", "parameters", 0],
	"source": ["paths", "/pets", "get", "parameters", 0],
}

run(params) := {"operations": [{"method": "get", "path": "/pets", "source": ["paths", "/pets", "get"], "parameters": params}]}

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

param_at(name, required, i) := object.union(param(name, required), {
	"schemaSource": ["paths", "/pets", "get", "parameters", i],
	"source": ["paths", "/pets", "get", "parameters", i],
})

test_offsets_and_cursors_are_judged if {
	vs := rule.violations with input as run([param_at("offset", true, 0), param_at("cursor", true, 1), param_at("page_token", false, 2)])
	vs == {
		{"path": ["paths", "/pets", "get", "parameters", 0, "required"], "message": "query parameter \"offset\" of GET /pets must be optional (required: false)"},
		{"path": ["paths", "/pets", "get", "parameters", 1, "required"], "message": "query parameter \"cursor\" of GET /pets must be optional (required: false)"},
	}
}

test_after_counts_where_the_operation_is_paginated if {
	vs := rule.violations with input as run([param_at("limit", false, 0), param_at("after", true, 1)])
	{v.message | some v in vs} == {"query parameter \"after\" of GET /pets must be optional (required: false)"}
	count(rule.violations) == 0 with input as run([param_at("after", true, 0)])
}
