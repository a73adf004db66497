package specgate.rules["schema-bounds-consistent_test"]

import data.specgate.rules["schema-bounds-consistent"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_satisfiable_bounds_pass if {
	count(rule.violations) == 0 with input as doc([
		named("A", {"minimum": 1, "maximum": 1}),
		named("B", {"minLength": 2, "maxLength": 2, "minItems": 0, "maxItems": 5}),
		named("C", {"exclusiveMinimum": 0, "maximum": 1, "multipleOf": 0.5}),
	])
}

test_crossed_lengths if {
	vs := rule.violations with input as doc([named("Code", {"minLength": 10, "maxLength": 5})])
	vs == {{"path": ["components", "schemas", "Code", "maxLength"], "message": `schema "Code" has minLength 10 above maxLength 5: no string length can satisfy both`}}
}

test_crossed_numbers if {
	vs := rule.violations with input as doc([named("Q", {"minimum": 10, "maximum": 1})])
	vs == {{"path": ["components", "schemas", "Q", "maximum"], "message": `schema "Q" allows no number: minimum 10 and maximum 1 cannot both hold`}}
}

test_equal_bounds_with_a_boolean_exclusive if {
	vs := rule.violations with input as doc([named("Q", {"minimum": 1, "maximum": 1, "exclusiveMaximum": true})])
	count(vs) == 1
}

test_equal_bounds_with_a_numeric_exclusive if {
	vs := rule.violations with input as doc([named("Q", {"exclusiveMinimum": 1, "maximum": 1})])
	vs == {{"path": ["components", "schemas", "Q", "maximum"], "message": `schema "Q" allows no number: exclusiveMinimum 1 and maximum 1 cannot both hold`}}
}

test_multiple_of_zero if {
	vs := rule.violations with input as doc([named("Q", {"multipleOf": 0})])
	vs == {{"path": ["components", "schemas", "Q", "multipleOf"], "message": `schema "Q" has multipleOf 0; it must be greater than 0`}}
}
