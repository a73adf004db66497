package specgate.rules["schema-type-declared_test"]

import data.specgate.rules["schema-type-declared"] as rule

test_untyped_constrained_schemas if {
	pet := {
		"type": "object",
		"properties": {
			"createdAt": {"format": "date-time"},
			"code": {"minLength": 2, "maxLength": 3, "description": "A code"},
			"name": {"type": "string", "maxLength": 3},
			"anything": {},
			"note": {"description": "Free text"},
			"kind": {"enum": ["cat", "dog"], "maxLength": 3},
			"tags": {"items": {"type": "string"}, "maxItems": 3},
			"pick": {"oneOf": [{"type": "string"}], "format": "uuid"},
			"id": {"type": "string", "not": {"pattern": "^x"}},
		},
		"allOf": [{"type": "object"}, {"minProperties": 1}],
	}
	i := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {"Pet": pet}}})
	vs := rule.violations with input as i
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "createdAt"], "message": "property \"createdAt\" of schema \"Pet\" sets format but declares no type, so values of any other type pass unchecked"},
		{"path": ["components", "schemas", "Pet", "properties", "code"], "message": "property \"code\" of schema \"Pet\" sets minLength, maxLength but declares no type, so values of any other type pass unchecked"},
	}
}
