package specgate.rules["schema-type-mismatch_test"]

import data.specgate.lib.correctness
import data.specgate.rules["schema-type-mismatch"] as rule

doc(schemas) := {"format": "openapi", "version": "3.1.0", "schemas": schemas, "schemasOfType": correctness.type_index(schemas), "operations": [], "webhooks": [], "callbacks": [], "pathItems": []}

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_matching_keywords_pass if {
	count(rule.violations) == 0 with input as doc([
		named("A", {"type": "array", "items": {}}),
		named("B", {"type": "object", "properties": {}}),
		named("C", {"type": ["object", "array"], "items": {}, "properties": {}}),
	])
}

test_object_with_items if {
	vs := rule.violations with input as doc([named("Pets", {"type": "object", "items": {}})])
	vs == {{"path": ["components", "schemas", "Pets", "items"], "message": `schema "Pets" is of type object, so its items are ignored; use type array, or remove items`}}
}

test_array_with_properties if {
	vs := rule.violations with input as doc([named("Pets", {"type": ["array", "null"], "properties": {}})])
	vs == {{"path": ["components", "schemas", "Pets", "properties"], "message": `schema "Pets" is of type array, so its properties are ignored; describe the elements under items`}}
}
