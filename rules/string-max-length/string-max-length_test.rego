package specgate.rules["string-max-length_test"]

import data.specgate.lib.security_test
import data.specgate.rules["string-max-length"] as rule

schema(source, node, request) := {"name": "", "node": node, "source": source, "request": request}

doc(schemas) := security_test.received_input({"format": "openapi", "requestSchemas": [s | some s in schemas; s.request], "parameters": [], "operations": []})

test_unbounded_request_string if {
	vs := {v | some v in rule.violations} with input as doc([
		schema(["components", "schemas", "Pet", "properties", "name"], {"type": "string"}, true),
		schema(["components", "schemas", "Pet", "properties", "tag"], {"type": ["string", "null"]}, true),
	])
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "name", "type"], "message": `property "name" in schema "Pet" is a string without maxLength`},
		{"path": ["components", "schemas", "Pet", "properties", "tag", "type"], "message": `property "tag" in schema "Pet" is a string without maxLength`},
	}
}

test_bounded_strings_pass if {
	count(rule.violations) == 0 with input as doc([
		schema(["a"], {"type": "string", "maxLength": 0}, true),
		schema(["b"], {"type": "string", "enum": ["x"]}, true),
		schema(["c"], {"type": "string", "const": "x"}, true),
		schema(["d"], {"type": "string", "format": "uuid"}, true),
		schema(["e"], {"type": "integer"}, true),
	])
}

test_response_only_and_read_only_strings_pass if {
	count(rule.violations) == 0 with input as doc([
		schema(["a"], {"type": "string"}, false),
		schema(["b", "properties", "id"], {"type": "string", "readOnly": true}, true),
	])
}

test_swagger_parameters if {
	p := {"name": "q", "in": "query", "schema": {"type": "string"}, "node": {"type": "string"}, "source": ["paths", "/a", "get", "parameters", 0], "schemaSource": ["paths", "/a", "get", "parameters", 0]}
	f := {"name": "note", "in": "formData", "node": {"type": "string"}, "source": ["paths", "/a", "post", "parameters", 0]}
	vs := {v | some v in rule.violations} with input as security_test.received_input({"format": "swagger", "requestSchemas": [], "parameters": [p], "operations": [
		{"parameters": [p], "requestBody": null},
		{"parameters": [], "requestBody": {"formData": [f]}},
	]})
	vs == {
		{"path": ["paths", "/a", "get", "parameters", 0, "type"], "message": `query parameter "q" is a string without maxLength`},
		{"path": ["paths", "/a", "post", "parameters", 0, "type"], "message": `formData parameter "note" is a string without maxLength`},
	}
}
