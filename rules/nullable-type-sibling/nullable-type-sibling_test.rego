package specgate.rules["nullable-type-sibling_test"]

import data.specgate.lib.correctness
import data.specgate.rules["nullable-type-sibling"] as rule

doc(schemas) := {"format": "openapi", "version": "3.0.3", "schemas": schemas, "schemasWith": correctness.index(schemas), "document": {}}

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
