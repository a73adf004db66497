package specgate.rules["nullable-oas31_test"]

import data.specgate.rules["nullable-oas31"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_type_lists_and_false_pass if {
	count(rule.violations) == 0 with input as doc([
		named("A", {"type": ["string", "null"]}),
		named("B", {"type": "string", "nullable": false}),
	])
}

test_nullable_true_suggests_a_type_list if {
	vs := rule.violations with input as doc([named("Nick", {"type": "string", "nullable": true})])
	vs == {{"path": ["components", "schemas", "Nick", "nullable"], "message": `schema "Nick" says nullable: true, which OpenAPI 3.1.0 ignores; write type: ["string", "null"] instead`}}
}

test_nullable_without_type if {
	vs := rule.violations with input as doc([named("Owner", {"nullable": true, "oneOf": [{}]})])
	vs == {{"path": ["components", "schemas", "Owner", "nullable"], "message": `schema "Owner" says nullable: true, which OpenAPI 3.1.0 ignores; allow null with "null" in type, or a {type: "null"} alternative in oneOf or anyOf`}}
}
