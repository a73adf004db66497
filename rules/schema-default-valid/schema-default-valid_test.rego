package specgate.rules["schema-default-valid_test"]

import data.specgate.lib.correctness_test

import data.specgate.lib.correctness
import data.specgate.rules["schema-default-valid"] as rule

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

doc(nodes) := {
	"format": "openapi", "version": "3.0.3",
	"schemas": [named(n, s) | some n, s in nodes],
	"schemasWith": correctness.index([named(n, s) | some n, s in nodes]),
	"document": {"components": {"schemas": nodes}},
	"componentRefs": {},
}

test_valid_defaults_pass if {
	count(rule.violations) == 0 with input as doc({"A": {"type": "integer", "default": 10, "maximum": 100}, "B": {"type": "string", "enum": ["a"], "default": "a"}})
}

test_default_above_maximum if {
	vs := rule.violations with input as doc({"Limit": {"type": "integer", "maximum": 100, "default": 500}})
	vs == {{"path": ["components", "schemas", "Limit", "default"], "message": `the default 500 of schema "Limit" does not match its schema: Must be less than or equal to 100`}}
}

test_swagger_parameters_are_schemas_without_their_own_keys if {
	p := {"name": "limit", "in": "query", "node": {"name": "limit", "in": "query", "required": true, "type": "integer", "default": "ten"}, "source": ["parameters", "limit"]}
	vs := rule.violations with input as correctness_test.swagger_input({"format": "swagger", "version": "2.0", "schemas": [], "schemasWith": {}, "parameters": [p], "operations": [], "document": {}, "componentRefs": {}})
	vs == {{"path": ["parameters", "limit", "default"], "message": `the default "ten" of parameter "limit" does not match its schema: Invalid type. Expected: integer, given: string`}}
}
