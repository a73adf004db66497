package specgate.rules["required-string-min-length_test"]

import data.specgate.rules["required-string-min-length"] as rule


test_required_strings_without_minimum if {
	pet := {"type": "object", "required": ["name", "tag", "born", "id", "code", "nick", "kind", "owner", "age", "missing"], "properties": {
		"name": {"type": "string"},
		"tag": {"type": ["string", "null"]},
		"born": {"type": "string", "format": "date"},
		"id": {"type": "string", "readOnly": true},
		"code": {"type": "string", "pattern": "^[A-Z]+$"},
		"nick": {"type": "string", "minLength": 0},
		"kind": {"type": "string", "enum": ["cat"]},
		"owner": {"$ref": "#/components/schemas/Owner"},
		"age": {"type": "integer"},
		"note": {"type": "string"},
	}}
	# Pet is sent in a request, Out only answered.
	i := specgate.test_input({
		"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
		"paths": {"/pets": {"post": {
			"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
			"responses": {"200": {"description": "d", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Out"}}}}},
		}}},
		"components": {"schemas": {"Owner": {"type": "string"}, "Pet": pet, "Out": pet}},
	})
	vs := {v | some v in rule.violations} with input as i
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "name"], "message": "property \"name\" of schema \"Pet\" is required but accepts an empty string; set minLength"},
		{"path": ["components", "schemas", "Pet", "properties", "tag"], "message": "property \"tag\" of schema \"Pet\" is required but accepts an empty string; set minLength"},
		{"path": ["components", "schemas", "Pet", "properties", "owner"], "message": "property \"owner\" of schema \"Pet\" is required but accepts an empty string; set minLength"},
	}
}
