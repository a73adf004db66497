package specgate.rules["integer-format_test"]

import data.specgate.lib.security_test
import data.specgate.rules["integer-format"] as rule

schema(name, node) := {"name": name, "node": node}

doc(schemas) := security_test.request_doc(schemas)

test_missing_and_unsized_formats if {
	vs := rule.violations with input as doc([
		schema("A", {"type": "integer"}),
		schema("B", {"type": ["integer", "null"], "format": "int"}),
		schema("C", {"type": "integer", "format": "int64"}),
		schema("D", {"type": "integer", "format": "uint8"}),
		schema("E", {"type": "number"}),
	])
	vs == {
		{"path": ["components", "schemas", "A", "type"], "message": `schema "A" is an integer without format (int32 or int64)`},
		{"path": ["components", "schemas", "B", "format"], "message": `schema "B" is an integer with format "int", which does not state its size (use int32 or int64)`},
	}
}
