package specgate.rules["additional-properties-bounded_test"]

import data.specgate.lib.security_test
import data.specgate.rules["additional-properties-bounded"] as rule

schema(name, node) := {"name": name, "node": node}

doc(schemas) := security_test.request_doc(schemas)

test_unbounded_maps if {
	vs := rule.violations with input as doc([
		schema("A", {"type": "object", "additionalProperties": true}),
		schema("B", {"type": "object", "additionalProperties": {"type": "string"}}),
		schema("C", {"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 10}),
		schema("D", {"type": "object", "additionalProperties": false}),
		schema("E", {"type": "object"}),
	])
	vs == {
		{"path": ["components", "schemas", "A", "additionalProperties"], "message": `schema "A" allows additional properties without maxProperties`},
		{"path": ["components", "schemas", "B", "additionalProperties"], "message": `schema "B" allows additional properties without maxProperties`},
	}
}
