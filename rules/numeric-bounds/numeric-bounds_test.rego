package specgate.rules["numeric-bounds_test"]

import data.specgate.lib.security_test
import data.specgate.rules["numeric-bounds"] as rule

schema(name, node) := {"name": name, "node": node}

doc(schemas) := security_test.request_doc(schemas)

messages(schemas) := {v.message | some v in vs} if {
	vs := {v | some v in rule.violations} with input as doc(schemas)
}

test_missing_bounds_are_named if {
	messages([
		schema("A", {"type": "integer"}),
		schema("B", {"type": "integer", "minimum": 0}),
		schema("C", {"type": "number", "maximum": 10}),
		schema("D", {"type": ["integer", "null"], "exclusiveMaximum": 10}),
	]) == {
		`schema "A" is an integer without minimum or maximum`,
		`schema "B" is an integer without maximum`,
		`schema "C" is a number without minimum`,
		`schema "D" is an integer without minimum`,
	}
}

test_boolean_exclusive_bounds_alone_do_not_bound if {
	messages([schema("A", {"type": "integer", "minimum": 1, "maximum": 5, "exclusiveMaximum": true}), schema("B", {"type": "integer", "exclusiveMinimum": true, "maximum": 5})]) == {`schema "B" is an integer without minimum`}
}

test_bounded_values_pass if {
	count(messages([
		schema("A", {"type": "integer", "minimum": 1, "maximum": 100}),
		schema("B", {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
		schema("C", {"type": "integer", "enum": [1, 2]}),
		schema("D", {"type": "string"}),
	])) == 0
}

test_reports_on_type if {
	vs := {v | some v in rule.violations} with input as doc([schema("A", {"type": "integer"})])
	{v.path | some v in vs} == {["components", "schemas", "A", "type"]}
}
