package specgate.rules["schema-description_test"]

import data.specgate.rules["schema-description"] as rule

test_oas3 if {
	schemas := {
		"Pet": {"type": "object"},
		"Owner": {"type": "object", "description": "Owns pets."},
		"Alias": {"$ref": "#/components/schemas/Pet"},
		"Anything": true,
		"Blank": {"description": " "},
	}
	vs := rule.violations with input as {"format": "openapi", "document": {"components": {"schemas": schemas}}}
	vs == {
		{"path": ["components", "schemas", "Pet"], "message": "schema Pet has no description"},
		{"path": ["components", "schemas", "Blank"], "message": "schema Blank has no description"},
	}
}

test_swagger if {
	vs := rule.violations with input as {"format": "swagger", "document": {"definitions": {"Pet": {"type": "object"}}}}
	vs == {{"path": ["definitions", "Pet"], "message": "schema Pet has no description"}}
}
