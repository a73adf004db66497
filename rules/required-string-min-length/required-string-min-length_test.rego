package specgate.rules["required-string-min-length_test"]

import data.specgate.lib.correctness
import data.specgate.rules["required-string-min-length"] as rule

schema(name, request, node) := {"name": name, "request": request, "node": node, "source": ["components", "schemas", name]}

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
	vs := rule.violations with input as {
		"document": {"components": {"schemas": {"Owner": {"type": "string"}}}},
		"schemasWith": correctness.index([schema("Pet", true, pet), schema("Out", false, pet)]),
	}
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "name"], "message": "property \"name\" of schema \"Pet\" is required but accepts an empty string; set minLength"},
		{"path": ["components", "schemas", "Pet", "properties", "tag"], "message": "property \"tag\" of schema \"Pet\" is required but accepts an empty string; set minLength"},
		{"path": ["components", "schemas", "Pet", "properties", "owner"], "message": "property \"owner\" of schema \"Pet\" is required but accepts an empty string; set minLength"},
	}
}
