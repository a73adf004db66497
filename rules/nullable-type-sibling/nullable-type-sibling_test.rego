package specgate.rules["nullable-type-sibling_test"]

import data.specgate.rules["nullable-type-sibling"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_nullable_with_type_passes if {
	count(rule.violations) == 0 with input as doc([
		named("A", {"type": "string", "nullable": true}),
		named("B", {"nullable": false}),
	])
}

test_nullable_without_type if {
	vs := rule.violations with input as doc([named("Owner", {"nullable": true, "allOf": [{"$ref": "#/components/schemas/User"}]})])
	vs == {{"path": ["components", "schemas", "Owner", "nullable"], "message": `schema "Owner" says nullable: true but has no type; in OpenAPI 3.0 nullable only applies to the type written beside it`}}
}
