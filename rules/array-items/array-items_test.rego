package specgate.rules["array-items_test"]

import data.specgate.rules["array-items"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

test_arrays_with_items_pass if {
	count(rule.violations) == 0 with input as doc([
		named("A", {"type": "array", "items": {}}),
		named("B", {"type": "object"}),
	])
}

test_array_without_items_is_reported_on_type if {
	vs := rule.violations with input as doc([named("Tags", {"type": "array", "maxItems": 3})])
	vs == {{"path": ["components", "schemas", "Tags", "type"], "message": `schema "Tags" is of type array but has no items; say what the array holds`}}
}

test_swagger_parameters_are_checked if {
	i := specgate.test_input({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
		"parameters": [{"name": "ids", "in": "query", "type": "array"}],
		"responses": {"200": {"description": "d"}},
	}}}})
	vs := rule.violations with input as i
	vs == {{"path": ["paths", "/a", "get", "parameters", 0, "type"], "message": `parameter "ids" of GET /a is of type array but has no items; say what the array holds`}}
}
