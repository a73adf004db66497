package specgate.rules["schema-type-declared_test"]

import data.specgate.lib.correctness
import data.specgate.rules["schema-type-declared"] as rule

schema(source, node) := {"name": "", "node": node, "source": source}

prop(name, node) := schema(["components", "schemas", "Pet", "properties", name], node)

test_untyped_constrained_schemas if {
	vs := rule.violations with input as {"schemasWith": correctness.index([
		prop("createdAt", {"format": "date-time"}),
		prop("code", {"minLength": 2, "maxLength": 3, "description": "A code"}),
		prop("name", {"type": "string", "maxLength": 3}),
		prop("anything", {}),
		prop("note", {"description": "Free text"}),
		prop("kind", {"enum": ["cat", "dog"], "maxLength": 3}),
		prop("tags", {"items": {"type": "string"}, "maxItems": 3}),
		prop("pick", {"oneOf": [{"type": "string"}], "format": "uuid"}),
		schema(["components", "schemas", "Pet", "allOf", 1], {"minProperties": 1}),
		schema(["components", "schemas", "Pet", "properties", "id", "not"], {"pattern": "^x"}),
	])}
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "createdAt"], "message": "property \"createdAt\" of schema \"Pet\" sets format but declares no type, so values of any other type pass unchecked"},
		{"path": ["components", "schemas", "Pet", "properties", "code"], "message": "property \"code\" of schema \"Pet\" sets minLength, maxLength but declares no type, so values of any other type pass unchecked"},
	}
}
