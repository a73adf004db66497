package specgate.rules["number-range-mixed_test"]

import data.specgate.rules["number-range-mixed"] as rule

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

test_one_bound_per_side_passes if {
	count(rule.violations) == 0 with input as doc([named("A", {"minimum": 0, "exclusiveMaximum": 10}), named("B", {"exclusiveMinimum": 0})])
}

test_both_lower_bounds if {
	vs := rule.violations with input as doc([named("Price", {"minimum": 0, "exclusiveMinimum": 0})])
	vs == {{"path": ["components", "schemas", "Price", "exclusiveMinimum"], "message": `schema "Price" has both minimum 0 and exclusiveMinimum 0; both apply, so the lower bound is exclusiveMinimum 0: keep one`}}
}

test_both_upper_bounds if {
	vs := rule.violations with input as doc([named("P", {"maximum": 5, "exclusiveMaximum": 10})])
	vs == {{"path": ["components", "schemas", "P", "exclusiveMaximum"], "message": `schema "P" has both maximum 5 and exclusiveMaximum 10; both apply, so the upper bound is maximum 5: keep one`}}
}
