package specgate.rules["string-max-length_test"]

import data.specgate.lib.security_test
import data.specgate.rules["string-max-length"] as rule

named(name, node) := {"name": name, "node": node}

test_unbounded_request_string if {
	vs := {v | some v in rule.violations} with input as security_test.request_doc([named("Pet", {"type": "object", "properties": {
		"name": {"type": "string"},
		"tag": {"type": ["string", "null"]},
	}})])
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "name", "type"], "message": `property "name" in schema "Pet" is a string without maxLength`},
		{"path": ["components", "schemas", "Pet", "properties", "tag", "type"], "message": `property "tag" in schema "Pet" is a string without maxLength`},
	}
}

test_bounded_strings_pass if {
	count(rule.violations) == 0 with input as security_test.request_doc([
		named("A", {"type": "string", "maxLength": 0}),
		named("B", {"type": "string", "enum": ["x"]}),
		named("C", {"type": "string", "const": "x"}),
		named("D", {"type": "string", "format": "uuid"}),
		named("E", {"type": "integer"}),
	])
}

# The string that only a response returns and the readOnly one in the
# request body are not received.
test_response_only_and_read_only_strings_pass if {
	count(rule.violations) == 0 with input as specgate.test_input({
		"openapi": "3.1.0",
		"info": {"title": "t", "version": "1"},
		"paths": {"/a": {"post": {
			"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/In"}}}},
			"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Out"}}}}},
		}}},
		"components": {"schemas": {
			"In": {"type": "object", "properties": {"id": {"type": "string", "readOnly": true}}},
			"Out": {"type": "string"},
		}},
	})
}

test_swagger_parameters if {
	vs := {v | some v in rule.violations} with input as specgate.test_input({
		"swagger": "2.0",
		"info": {"title": "t", "version": "1"},
		"paths": {"/a": {
			"get": {"parameters": [{"name": "q", "in": "query", "type": "string"}], "responses": {"204": {"description": "done"}}},
			"post": {
				"consumes": ["application/x-www-form-urlencoded"],
				"parameters": [{"name": "note", "in": "formData", "type": "string"}],
				"responses": {"204": {"description": "done"}},
			},
		}},
	})
	vs == {
		{"path": ["paths", "/a", "get", "parameters", 0, "type"], "message": `query parameter "q" is a string without maxLength`},
		{"path": ["paths", "/a", "post", "parameters", 0, "type"], "message": `formData parameter "note" is a string without maxLength`},
	}
}
