package specgate.rules["string-format-or-pattern_test"]

import data.specgate.lib.security_test
import data.specgate.rules["string-format-or-pattern"] as rule

schema(name, node) := {"name": name, "node": node}

doc(schemas) := security_test.request_doc(schemas)

test_unrestricted_strings if {
	vs := {v | some v in rule.violations} with input as doc([
		schema("A", {"type": "string", "maxLength": 10}),
		schema("B", {"type": ["string", "null"]}),
		schema("C", {"type": "string", "format": "email"}),
		schema("D", {"type": "string", "pattern": "^[a-z]+$"}),
		schema("E", {"type": "string", "enum": ["a"]}),
		schema("F", {"type": "string", "const": "a"}),
	])
	vs == {
		{"path": ["components", "schemas", "A", "type"], "message": `schema "A" is a string without format, pattern or enum`},
		{"path": ["components", "schemas", "B", "type"], "message": `schema "B" is a string without format, pattern or enum`},
	}
}

# An empty format or pattern is none; a request without strings has no
# finding (the list is empty, not undefined).
test_empty_format_or_pattern if {
	vs := {v | some v in rule.violations} with input as doc([
		schema("A", {"type": "string", "format": ""}),
		schema("B", {"type": "string", "format": "", "pattern": "^b$"}),
		schema("C", {"type": "string", "pattern": ""}),
		schema("D", {"type": "integer"}),
	])
	vs == {
		{"path": ["components", "schemas", "A", "type"], "message": `schema "A" is a string without format, pattern or enum`},
		{"path": ["components", "schemas", "C", "type"], "message": `schema "C" is a string without format, pattern or enum`},
	}
	rule.violations == [] with input as doc([schema("D", {"type": "integer"})])
}
