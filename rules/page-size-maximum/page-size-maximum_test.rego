package specgate.rules["page-size-maximum_test"]

import data.specgate.rules["page-size-maximum"] as rule

param(name, schema, i) := {
	"name": name, "in": "query", "required": false, "schema": schema,
	"schemaSource": ["paths", "/pets", "get", "parameters", i, "schema"],
	"source": ["paths", "/pets", "get", "parameters", i],
}

run(params) := vs if vs := rule.violations with input as {"operations": [{"method": "get", "path": "/pets", "source": ["paths", "/pets", "get"], "parameters": params}]}

test_bounded_passes if {
	count(run([
		param("per_page", {"type": "integer", "maximum": 100}, 0),
		param("page_size", {"type": ["integer", "null"], "exclusiveMaximum": 101}, 1),
	])) == 0
}

test_unbounded_is_reported_on_the_schema if {
	vs := run([param("per_page", {"type": "integer", "minimum": 1}, 0)])
	vs == {{"path": ["paths", "/pets", "get", "parameters", 0, "schema"], "message": "query parameter \"per_page\" of GET /pets declares no maximum; say how large a page clients may ask for"}}
}

test_limit_counts_when_paginated if {
	vs := run([param("limit", {"type": "integer"}, 0), param("offset", {"type": "integer", "minimum": 0, "maximum": 10000}, 1)])
	{v.message | some v in vs} == {"query parameter \"limit\" of GET /pets declares no maximum; say how large a page clients may ask for"}
	count(run([param("limit", {"type": "integer"}, 0)])) == 0
}

test_non_numbers_are_left_to_positive_int if {
	count(run([param("page_size", {"type": "string"}, 0)])) == 0
}
