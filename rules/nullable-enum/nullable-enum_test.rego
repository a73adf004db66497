package specgate.rules["nullable-enum_test"]

import data.specgate.rules["nullable-enum"] as rule

# doc(version, schemas) is the input lint builds (specgate.test_input)
# for a document of the OpenAPI version whose named schemas are these.
doc(version, schemas) := specgate.test_input({"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_enums_with_null_pass if {
	count(rule.violations) == 0 with input as doc("3.1.0", [
		named("A", {"type": ["string", "null"], "enum": ["a", null]}),
		named("B", {"type": "string", "enum": ["a"]}),
	])
}

test_type_list_with_null if {
	vs := rule.violations with input as doc("3.1.0", [named("S", {"type": ["string", "null"], "enum": ["a"]})])
	vs == {{"path": ["components", "schemas", "S", "enum"], "message": `schema "S" allows null by its type, but its enum does not list null, so null is rejected`}}
}

test_nullable_counts_only_in_3_0 if {
	s := named("S", {"type": "string", "nullable": true, "enum": ["a"]})
	count(rule.violations) == 1 with input as doc("3.0.3", [s])
	count(rule.violations) == 0 with input as doc("3.1.0", [s])
}
