package specgate.rules["no-additional-properties_test"]

import data.specgate.lib.security_test
import data.specgate.rules["no-additional-properties"] as rule

schema(name, node) := {"name": name, "node": node}

doc(schemas) := security_test.request_doc(schemas)

test_free_form_objects if {
	vs := rule.violations with input as doc([
		schema("A", {"type": "object", "additionalProperties": true}),
		schema("B", {"additionalProperties": {}}),
		schema("C", {"type": "object", "additionalProperties": false}),
		schema("D", {"type": "object", "additionalProperties": {"type": "string"}}),
		schema("E", {"type": "object"}),
	])
	vs == {
		{"path": ["components", "schemas", "A", "additionalProperties"], "message": `schema "A" accepts any additional property (additionalProperties: true)`},
		{"path": ["components", "schemas", "B", "additionalProperties"], "message": `schema "B" accepts any additional property (additionalProperties: {})`},
	}
}
