package specgate.rules["readonly-writeonly-exclusive_test"]

import data.specgate.lib.correctness
import data.specgate.rules["readonly-writeonly-exclusive"] as rule

doc(schemas) := {"format": "openapi", "version": "3.0.3", "schemas": schemas, "schemasWith": correctness.index(schemas), "document": {}}

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
