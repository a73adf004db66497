package specgate.rules["schema-default-valid_test"]

import data.specgate.rules["schema-default-valid"] as rule

# doc(nodes) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(nodes) := specgate.test_input({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": nodes}})

# swagger_parameter(node) is the input lint builds (specgate.test_input)
# for a Swagger 2.0 document whose GET /a takes the reusable parameter
# node, written under parameters.<name>.
swagger_parameter(node) := specgate.test_input({
	"swagger": "2.0", "info": {"title": "t", "version": "1"},
	"paths": {"/a": {"get": {"parameters": [{"$ref": concat("", ["#/parameters/", node.name])}], "responses": {"200": {"description": "d"}}}}},
	"parameters": {node.name: node},
})

test_valid_defaults_pass if {
	count(rule.violations) == 0 with input as doc({"A": {"type": "integer", "default": 10, "maximum": 100}, "B": {"type": "string", "enum": ["a"], "default": "a"}})
}

test_default_above_maximum if {
	vs := rule.violations with input as doc({"Limit": {"type": "integer", "maximum": 100, "default": 500}})
	vs == {{"path": ["components", "schemas", "Limit", "default"], "message": `the default 500 of schema "Limit" does not match its schema: Must be less than or equal to 100`}}
}

test_swagger_parameters_are_schemas_without_their_own_keys if {
	vs := rule.violations with input as swagger_parameter({"name": "limit", "in": "query", "required": true, "type": "integer", "default": "ten"})
	vs == {{"path": ["parameters", "limit", "default"], "message": `the default "ten" of parameter "limit" does not match its schema: Invalid type. Expected: integer, given: string`}}
}
