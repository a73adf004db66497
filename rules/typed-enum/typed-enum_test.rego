package specgate.rules["typed-enum_test"]

import data.specgate.rules["typed-enum"] as rule

# doc(version, schemas) is the input lint builds (specgate.test_input)
# for a document of the OpenAPI version whose named schemas are these.
doc(version, schemas) := specgate.test_input({"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

# swagger_parameter(node) is the input lint builds (specgate.test_input)
# for a Swagger 2.0 document whose GET /a takes the reusable parameter
# node, written under parameters.<name>.
swagger_parameter(node) := specgate.test_input({
	"swagger": "2.0", "info": {"title": "t", "version": "1"},
	"paths": {"/a": {"get": {"parameters": [{"$ref": concat("", ["#/parameters/", node.name])}], "responses": {"200": {"description": "d"}}}}},
	"parameters": {node.name: node},
})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_matching_values_pass if {
	count(rule.violations) == 0 with input as doc("3.1.0", [
		named("A", {"type": "integer", "enum": [1, 2.0]}),
		named("B", {"type": "number", "enum": [1, 2.5]}),
		named("C", {"type": ["string", "null"], "enum": ["x", null]}),
		named("D", {"enum": [1, "x"]}),
		named("E", {"type": "string", "const": "x"}),
	])
}

test_wrong_type_is_reported_on_the_value if {
	vs := rule.violations with input as doc("3.1.0", [named("A", {"type": "integer", "enum": [1, "2"]})])
	vs == {{"path": ["components", "schemas", "A", "enum", 1], "message": `enum value "2" of schema "A" is a string, but its type is integer`}}
}

test_fraction_is_not_an_integer if {
	vs := rule.violations with input as doc("3.1.0", [named("A", {"type": "integer", "enum": [1.5]})])
	vs == {{"path": ["components", "schemas", "A", "enum", 0], "message": `enum value 1.5 of schema "A" is a number, but its type is integer`}}
}

test_nullable_admits_null_only_in_3_0 if {
	s := named("A", {"type": "string", "nullable": true, "enum": ["x", null]})
	count(rule.violations) == 0 with input as doc("3.0.3", [s])
	vs := rule.violations with input as doc("3.1.0", [s])
	vs == {{"path": ["components", "schemas", "A", "enum", 1], "message": `enum value null of schema "A" is null, but its type is string`}}
}

test_const_is_checked if {
	vs := rule.violations with input as doc("3.0.3", [named("A", {"type": "boolean", "const": "yes"})])
	vs == {{"path": ["components", "schemas", "A", "const"], "message": `const value "yes" of schema "A" is a string, but its type is boolean`}}
}

test_unknown_types_are_left_alone if {
	count(rule.violations) == 0 with input as doc("3.0.3", [named("A", {"type": "file", "enum": [1]})])
}

test_swagger_parameters_are_checked if {
	vs := rule.violations with input as swagger_parameter({"name": "limit", "in": "query", "type": "integer", "enum": ["10"]})
	vs == {{"path": ["parameters", "limit", "enum", 0], "message": `enum value "10" of parameter "limit" is a string, but its type is integer`}}
}
