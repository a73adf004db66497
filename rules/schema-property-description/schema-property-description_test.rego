package specgate.rules["schema-property-description_test"]

import data.specgate.rules["schema-property-description"] as rule

# swagger(definitions) is the input lint builds (specgate.test_input) for
# a Swagger 2.0 document with these definitions.
swagger(definitions) := specgate.test_input({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": definitions})

# A property of a named schema, of a schema nested in one, of one written
# in an operation, and of one elsewhere (a reusable request body).
test_one_missing_property_is_reported_on_its_key if {
	pet := {"type": "object", "properties": {
		"status": {"type": "string"},
		"name": {"type": "string", "description": "The pet's name."},
		"owner": {"$ref": "#/components/schemas/Owner"},
		"extra": true,
		"size": {"description": "Its sizes.", "type": "array", "items": {"type": "object", "properties": {"unit": {"type": "string", "description": " "}}}},
	}}
	owner := {"type": "object", "description": "Who keeps the pet."}
	paths := {"/pets": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"total": {"type": "integer"}}}}}}}}}}
	vs := {v | some v in rule.violations} with input as specgate.test_input({
		"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
		"paths": paths,
		"components": {
			"schemas": {"Pet": pet, "Owner": owner},
			"requestBodies": {"A": {"content": {"application/json": {"schema": {"type": "object", "properties": {"b": {"type": "integer"}}}}}}},
		},
	})
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "status"], "message": `property "status" of schema Pet has no description`},
		{"path": ["components", "schemas", "Pet", "properties", "size", "items", "properties", "unit"], "message": `property "unit" in schema Pet has no description`},
		{"path": ["paths", "/pets", "get", "responses", "200", "content", "application/json", "schema", "properties", "total"], "message": `property "total" in GET /pets has no description`},
		{"path": ["components", "requestBodies", "A", "content", "application/json", "schema", "properties", "b"], "message": `property "b" has no description`},
	}
}

test_several_are_reported_on_properties if {
	vs2 := {v | some v in rule.violations} with input as swagger({"Pet": {"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "integer"}}}})
	vs2 == {{"path": ["definitions", "Pet", "properties"], "message": `properties "a" and "b" of schema Pet have no description`}}
	vs4 := {v | some v in rule.violations} with input as swagger({"Pet": {"type": "object", "properties": {"d": {}, "c": {}, "b": {}, "a": {}}}})
	{v.message | some v in vs4} == {`properties "a", "b", "c" and "d" of schema Pet have no description`}
	vs6 := {v | some v in rule.violations} with input as swagger({"Pet": {"type": "object", "properties": {"f": {}, "e": {}, "d": {}, "c": {}, "b": {}, "a": {}}}})
	{v.message | some v in vs6} == {`properties "a", "b", "c" and 3 others of schema Pet have no description`}
}

test_swagger_definitions if {
	vs := {v | some v in rule.violations} with input as swagger({"Pet": {"type": "object", "properties": {"tag": {
		"description": "A tag.", "type": "object",
		"properties": {"id": {"type": "integer"}},
	}}}})
	vs == {{"path": ["definitions", "Pet", "properties", "tag", "properties", "id"], "message": `property "id" in schema Pet has no description`}}
}
