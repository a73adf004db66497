package specgate.rules["schema-type-mismatch_test"]

import data.specgate.rules["schema-type-mismatch"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

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

test_bounds_of_another_type if {
	schemas := [
		named("Events", {"type": "array", "items": {"type": "string", "minItems": 1}}),
		named("Age", {"type": ["integer", "null"], "maxLength": 3, "minimum": 0}),
		named("Name", {"type": "string", "maxLength": 3, "pattern": "^a"}),
		named("Any", {"maxLength": 3}),
	]
	vs := rule.violations with input as doc(schemas)
	vs == {
		{"path": ["components", "schemas", "Events", "items", "minItems"], "message": `items of schema "Events" is of type string, so its minItems is ignored: it applies to arrays only`},
		{"path": ["components", "schemas", "Age", "maxLength"], "message": `schema "Age" is of type integer or null, so its maxLength is ignored: it applies to strings only`},
	}
}
