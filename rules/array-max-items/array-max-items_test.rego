package specgate.rules["array-max-items_test"]

import data.specgate.lib.security_test
import data.specgate.rules["array-max-items"] as rule

named(name, node) := {"name": name, "node": node}

# The request body of POST /a is a nullable array of Batch objects, whose
# property "items" is an array too.
test_unbounded_arrays if {
	vs := {v | some v in rule.violations} with input as specgate.test_input({
		"openapi": "3.1.0",
		"info": {"title": "t", "version": "1"},
		"paths": {"/a": {"post": {
			"requestBody": {"content": {"application/json": {"schema": {"type": ["array", "null"], "items": {"$ref": "#/components/schemas/Batch"}}}}},
			"responses": {"204": {"description": "done"}},
		}}},
		"components": {"schemas": {"Batch": {"type": "object", "properties": {"items": {"type": "array"}}}}},
	})
	vs == {
		{"path": ["components", "schemas", "Batch", "properties", "items", "type"], "message": `property "items" in schema "Batch" is an array without maxItems`},
		{"path": ["paths", "/a", "post", "requestBody", "content", "application/json", "schema", "type"], "message": "the request body of POST /a is an array without maxItems"},
	}
}

test_bounded_or_read_only_arrays_pass if {
	count(rule.violations) == 0 with input as security_test.request_doc([
		named("A", {"type": "array", "maxItems": 10}),
		named("B", {"type": "array", "enum": [[1]]}),
		named("C", {"type": "array", "readOnly": true}),
		named("D", {"type": "object"}),
	])
}

test_items_of_a_parameter if {
	vs := {v | some v in rule.violations} with input as specgate.test_input({
		"openapi": "3.1.0",
		"info": {"title": "t", "version": "1"},
		"paths": {"/a": {"get": {
			"parameters": [{"name": "ids", "in": "query", "schema": {"type": "array", "items": {"type": "array", "maxItems": 3}}}],
			"responses": {"204": {"description": "done"}},
		}}},
	})
	vs == {{"path": ["paths", "/a", "get", "parameters", 0, "schema", "type"], "message": `query parameter "ids" is an array without maxItems`}}
}
