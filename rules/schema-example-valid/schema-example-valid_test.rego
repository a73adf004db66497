package specgate.rules["schema-example-valid_test"]

import data.specgate.rules["schema-example-valid"] as rule

# doc(version, nodes) is the input lint builds (specgate.test_input) for
# a document of that OpenAPI version whose named schemas are nodes.
doc(version, nodes) := specgate.test_input({"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": nodes}})

pet := {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}

test_valid_examples_pass if {
	count(rule.violations) == 0 with input as doc("3.0.3", {
		"Pet": object.union(pet, {"example": {"name": "Rex", "age": 3}}),
		"Name": {"type": "string", "example": "1234"},
		"Ref": {"$ref": "#/components/schemas/Pet", "example": {"name": "Tom"}},
		"Pet2": pet,
	})
}

test_invalid_example_lists_the_reasons if {
	vs := rule.violations with input as doc("3.0.3", {"Pet": object.union(pet, {"example": {"age": "two"}})})
	vs == {{"path": ["components", "schemas", "Pet", "example"], "message": `the example of schema "Pet" does not match its schema: name is required; at age: Invalid type. Expected: integer, given: string`}}
}

test_named_schemas_are_bundled if {
	list := {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}, "example": [{"name": 1}]}
	vs := rule.violations with input as doc("3.0.3", {"Pets": list, "Pet": pet})
	vs == {{"path": ["components", "schemas", "Pets", "example"], "message": `the example of schema "Pets" does not match its schema: at 0.name: Invalid type. Expected: string, given: integer`}}
}

test_null_is_left_to_nullable_in_3_0 if {
	count(rule.violations) == 0 with input as doc("3.0.3", {"A": {"type": "object", "properties": {"b": {"type": "string"}}, "example": {"b": null}}})
	count(rule.violations) == 1 with input as doc("3.1.0", {"A": {"type": "object", "properties": {"b": {"type": "string"}}, "example": {"b": null}}})
}

test_format_is_an_annotation if {
	count(rule.violations) == 0 with input as doc("3.1.0", {"A": {"type": "string", "format": "date-time", "pattern": "^.+$", "example": "yesterday"}})
}

test_3_1_examples_list if {
	vs := rule.violations with input as doc("3.1.0", {"A": {"type": "integer", "maximum": 9, "examples": [1, 10]}})
	vs == {{"path": ["components", "schemas", "A", "examples", 1], "message": `example 1 of schema "A" does not match its schema: Must be less than or equal to 9`}}
}

test_uncompilable_schemas_are_left_alone if {
	count(rule.violations) == 0 with input as doc("3.0.3", {"A": {"$ref": "other.yaml#/A", "example": 1}})
}
