package specgate.rules["enum-values-unique_test"]

import data.specgate.rules["enum-values-unique"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_unique_values_pass if {
	count(rule.violations) == 0 with input as doc([named("A", {"enum": ["a", "b", 1, "1", {"x": 1}, {"x": 2}]})])
}

test_each_repeated_value_is_reported_once if {
	vs := rule.violations with input as doc([named("A", {"type": "string", "enum": ["a", "b", "a", "a", "b", "a"]})])
	vs == {
		{"path": ["components", "schemas", "A", "enum", 2], "message": `enum value "a" of schema "A" repeats entry 0, as do 2 later entries; list each value once`},
		{"path": ["components", "schemas", "A", "enum", 4], "message": `enum value "b" of schema "A" repeats entry 1; list each value once`},
	}
}

test_numbers_compare_by_value if {
	vs := rule.violations with input as doc([named("A", {"enum": [1, 1.0]})])
	count(vs) == 1
}

test_objects_compare_by_members if {
	vs := rule.violations with input as doc([named("A", {"enum": [{"a": 1, "b": 2}, {"b": 2, "a": 1}]})])
	count(vs) == 1
}
