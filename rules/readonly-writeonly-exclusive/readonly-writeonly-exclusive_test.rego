package specgate.rules["readonly-writeonly-exclusive_test"]

import data.specgate.rules["readonly-writeonly-exclusive"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_one_of_them_passes if {
	count(rule.violations) == 0 with input as doc([
		named("A", {"readOnly": true}),
		named("B", {"writeOnly": true, "readOnly": false}),
	])
}

test_both if {
	vs := rule.violations with input as doc([named("P", {"readOnly": true, "writeOnly": true})])
	vs == {{"path": ["components", "schemas", "P", "writeOnly"], "message": `schema "P" is both readOnly and writeOnly, so it can be sent in neither requests nor responses`}}
}
