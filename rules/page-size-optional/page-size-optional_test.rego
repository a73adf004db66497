package specgate.rules["page-size-optional_test"]

import data.specgate.rules["page-size-optional"] as rule

param(name, required, source) := {
	"name": name, "in": "query", "required": required,
	"schema": {"type": "integer", "minimum": 1, "default": 20},
	"schemaSource": array.concat(source, ["schema"]), "source": source,
}

op(method, path, params) := {"method": method, "path": path, "source": ["paths", path, method], "parameters": params}

own := ["paths", "/pets", "get", "parameters", 0]

test_optional_passes if {
	count(rule.violations) == 0 with input as {"operations": [op("get", "/pets", [param("page_size", false, own)])]}
}

test_required_is_reported_on_required if {
	vs := rule.violations with input as {"operations": [op("get", "/pets", [param("page_size", true, own)])]}
	vs == {{
		"path": array.concat(own, ["required"]),
		"message": "query parameter \"page_size\" of GET /pets must be optional (required: false)",
	}}
}

test_name_is_compared_without_case if {
	vs := rule.violations with input as {"operations": [op("get", "/pets", [param("PageSize", true, own)])]}
	{v.message | some v in vs} == {"query parameter \"PageSize\" of GET /pets must be optional (required: false)"}
}

test_shared_parameter_is_reported_once if {
	shared := param("pageSize", true, ["components", "parameters", "PageSize"])
	ops := [op("get", "/pets", [shared]), op("get", "/owners", [shared]), op("get", "/vets", [shared])]
	vs := rule.violations with input as {"operations": ops}
	vs == {{
		"path": ["components", "parameters", "PageSize", "required"],
		"message": "query parameter \"pageSize\" of GET /pets and 2 other operations must be optional (required: false)",
	}}
}

test_two_users_read_naturally if {
	shared := param("page_size", true, ["paths", "/pets", "parameters", 0])
	vs := rule.violations with input as {"operations": [op("get", "/pets", [shared]), op("post", "/pets", [shared])]}
	{v.message | some v in vs} == {"query parameter \"page_size\" of GET /pets and 1 other operation must be optional (required: false)"}
}

test_other_names_and_locations_are_ignored if {
	header := object.union(param("page_size", true, own), {"in": "header"})
	ops := [op("get", "/pets", [param("size", true, own), header])]
	count(rule.violations) == 0 with input as {"operations": ops}
}

test_per_page_counts if {
	vs := rule.violations with input as {"operations": [op("get", "/pets", [param("per_page", true, own)])]}
	{v.message | some v in vs} == {"query parameter \"per_page\" of GET /pets must be optional (required: false)"}
}

test_limit_counts_where_the_operation_is_paginated if {
	limit := param("limit", true, own)
	offset := object.union(param("offset", false, ["paths", "/pets", "get", "parameters", 1]), {"name": "offset"})
	vs := rule.violations with input as {"operations": [op("get", "/pets", [limit, offset])]}
	{v.message | some v in vs} == {"query parameter \"limit\" of GET /pets must be optional (required: false)"}
	count(rule.violations) == 0 with input as {"operations": [op("get", "/search", [limit])]}
}
