package specgate.rules["page-size-positive-int_test"]

import data.specgate.rules["page-size-positive-int"] as rule

src := ["paths", "/pets", "get", "parameters", 0]

schema_src := array.concat(src, ["schema"])

param(schema) := {
	"name": "page_size", "in": "query", "required": false,
	"schema": schema, "schemaSource": schema_src, "source": src,
}

run(schema) := {"operations": [{"method": "get", "path": "/pets", "parameters": [param(schema)]}]}

subject := "query parameter \"page_size\" of GET /pets"

test_positive_integer_passes if {
	count(rule.violations) == 0 with input as run({"type": "integer", "minimum": 1, "maximum": 100, "default": 20})
	count(rule.violations) == 0 with input as run({"type": "integer", "minimum": 5})
}

test_type_list_with_integer_passes if {
	count(rule.violations) == 0 with input as run({"type": ["integer", "null"], "minimum": 1})
}

test_exclusive_minimums_count if {
	count(rule.violations) == 0 with input as run({"type": "integer", "minimum": 0, "exclusiveMinimum": true})
	count(rule.violations) == 0 with input as run({"type": "integer", "exclusiveMinimum": 0})
}

test_wrong_type_is_the_only_problem if {
	vs := rule.violations with input as run({"type": "string", "default": "0"})
	vs == {{"path": array.concat(schema_src, ["type"]), "message": sprintf("%s must be of type integer, found \"string\"", [subject])}}
}

test_missing_type_points_at_the_schema if {
	vs := rule.violations with input as run({"minimum": 1})
	vs == {{"path": schema_src, "message": sprintf("%s must declare type: integer", [subject])}}
}

test_missing_minimum_points_at_the_schema if {
	vs := rule.violations with input as run({"type": "integer", "default": 20})
	vs == {{"path": schema_src, "message": sprintf("%s must declare a minimum of 1", [subject])}}
}

test_low_minimum_and_default_are_reported_each if {
	vs := rule.violations with input as run({"type": "integer", "minimum": 0, "default": 0})
	vs == {
		{"path": array.concat(schema_src, ["minimum"]), "message": sprintf("%s must not allow values below 1, found a minimum of 0", [subject])},
		{"path": array.concat(schema_src, ["default"]), "message": sprintf("%s must have a default of at least 1, found 0", [subject])},
	}
}

test_exclusive_minimum_below_zero_is_low if {
	vs := rule.violations with input as run({"type": "integer", "exclusiveMinimum": -1})
	vs == {{"path": array.concat(schema_src, ["exclusiveMinimum"]), "message": sprintf("%s must not allow values below 1, found a minimum of 0", [subject])}}
}

test_string_page_size_is_not_a_token if {
	vs := rule.violations with input as run({"type": "string"})
	count(vs) == 1
}

# A string default is schema-default-valid's finding, not a size below 1.
test_string_default_is_left_to_schema_default_valid if {
	count(rule.violations) == 0 with input as run({"type": "integer", "minimum": 1, "default": "20"})
}
