package specgate.rules["array-max-items_test"]

import data.specgate.lib.security_test
import data.specgate.rules["array-max-items"] as rule

schema(source, node) := {"name": "", "node": node, "source": source}

doc(schemas) := security_test.received_input({"format": "openapi", "requestSchemas": schemas, "parameters": [], "operations": []})

test_unbounded_arrays if {
	vs := rule.violations with input as doc([
		schema(["components", "schemas", "Batch", "properties", "items"], {"type": "array"}),
		schema(["paths", "/a", "post", "requestBody", "content", "application/json", "schema"], {"type": ["array", "null"]}),
	])
	vs == {
		{"path": ["components", "schemas", "Batch", "properties", "items", "type"], "message": `property "items" in schema "Batch" is an array without maxItems`},
		{"path": ["paths", "/a", "post", "requestBody", "content", "application/json", "schema", "type"], "message": "the request body of POST /a is an array without maxItems"},
	}
}

test_bounded_or_read_only_arrays_pass if {
	count(rule.violations) == 0 with input as doc([
		schema(["a"], {"type": "array", "maxItems": 10}),
		schema(["b"], {"type": "array", "enum": [[1]]}),
		schema(["c"], {"type": "array", "readOnly": true}),
		schema(["d"], {"type": "object"}),
	])
}

test_items_of_a_parameter if {
	p := {"name": "ids", "in": "query", "schemaSource": ["paths", "/a", "get", "parameters", 0, "schema"]}
	vs := rule.violations with input as security_test.received_input({"format": "openapi", "parameters": [p], "operations": [], "requestSchemas": [
		schema(["paths", "/a", "get", "parameters", 0, "schema"], {"type": "array"}),
		schema(["paths", "/a", "get", "parameters", 0, "schema", "items"], {"type": "array", "maxItems": 3}),
	]})
	vs == {{"path": ["paths", "/a", "get", "parameters", 0, "schema", "type"], "message": `query parameter "ids" is an array without maxItems`}}
}
