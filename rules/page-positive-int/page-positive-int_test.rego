package specgate.rules["page-positive-int_test"]

import data.specgate.rules["page-positive-int"] as rule

src := ["paths", "/pets", "get", "parameters", 1]

run(schema) := {"operations": [{"method": "get", "path": "/pets", "parameters": [{
	"name": "page", "in": "query", "required": false,
	"schema": schema, "schemaSource": src, "source": src,
}]}]}

test_positive_integer_passes if {
	count(rule.violations) == 0 with input as run({"type": "integer", "minimum": 1, "default": 1})
}

test_zero_based_page_is_reported if {
	vs := rule.violations with input as run({"type": "integer", "minimum": 0})
	vs == {{
		"path": array.concat(src, ["minimum"]),
		"message": "query parameter \"page\" of GET /pets must not allow values below 1, found a minimum of 0",
	}}
}

test_number_type_is_reported if {
	vs := rule.violations with input as run({"type": "number", "minimum": 1})
	{v.message | some v in vs} == {"query parameter \"page\" of GET /pets must be of type integer, found \"number\""}
}

test_string_page_token_is_left_alone if {
	count(rule.violations) == 0 with input as run({"type": "string", "maxLength": 5000})
}

# billingo.hu writes default: "1" on an integer page: schema-default-valid
# reports that the default is not an integer; this rule does not call "1"
# a page below 1.
test_string_default_is_left_to_schema_default_valid if {
	vs := rule.violations with input as run({"type": "integer", "minimum": 1, "default": "1"})
	count(vs) == 0
}

test_low_default_is_reported if {
	vs := rule.violations with input as run({"type": "integer", "minimum": 1, "default": 0})
	{v.path | some v in vs} == {array.concat(src, ["default"])}
}
