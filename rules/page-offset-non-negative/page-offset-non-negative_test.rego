package specgate.rules["page-offset-non-negative_test"]

import data.specgate.rules["page-offset-non-negative"] as rule

param(name, schema) := {
	"name": name, "in": "query", "required": false, "schema": schema,
	"schemaSource": ["paths", "/pets", "get", "parameters", 0, "schema"],
	"source": ["paths", "/pets", "get", "parameters", 0],
}

run(p) := vs if vs := rule.violations with input as {"operations": [{"method": "get", "path": "/pets", "parameters": [p]}]}

src := ["paths", "/pets", "get", "parameters", 0, "schema"]

test_non_negative_passes if {
	count(run(param("offset", {"type": "integer", "minimum": 0, "default": 0}))) == 0
	count(run(param("Skip", {"type": ["integer", "null"], "minimum": 0}))) == 0
	count(run(param("offset", {"type": "integer", "exclusiveMinimum": -1}))) == 0
}

test_missing_minimum if {
	run(param("offset", {"type": "integer"})) == {{"path": src, "message": "query parameter \"offset\" of GET /pets must declare a minimum of 0"}}
}

test_negative_minimum_and_default if {
	run(param("offset", {"type": "integer", "minimum": -1, "default": -5})) == {
		{"path": array.concat(src, ["minimum"]), "message": "query parameter \"offset\" of GET /pets must not allow values below 0, found a minimum of -1"},
		{"path": array.concat(src, ["default"]), "message": "query parameter \"offset\" of GET /pets must have a default of at least 0, found -5"},
	}
}

test_number_type if {
	run(param("offset", {"type": "number", "minimum": 0})) == {{"path": array.concat(src, ["type"]), "message": "query parameter \"offset\" of GET /pets must be of type integer, found \"number\""}}
}

test_string_offset_is_a_token if {
	count(run(param("offset", {"type": "string"}))) == 0
}

# A string default is schema-default-valid's finding, not an offset below 0.
test_string_default_is_left_to_schema_default_valid if {
	count(run(param("offset", {"type": "integer", "minimum": 0, "default": "0"}))) == 0
}
