package specgate.rules["array-items_test"]

import data.specgate.lib.correctness_test

import data.specgate.lib.correctness
import data.specgate.rules["array-items"] as rule

doc(schemas) := {"format": "openapi", "version": "3.0.3", "schemas": schemas, "schemasOfType": correctness.type_index(schemas), "operations": [], "webhooks": [], "callbacks": [], "pathItems": []}

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
	p := {"name": "ids", "in": "query", "node": {"name": "ids", "in": "query", "type": "array"}, "source": ["paths", "/a", "get", "parameters", 0]}
	op := {"path": "/a", "method": "get", "webhook": "", "callback": "", "source": ["paths", "/a", "get"], "node": {"parameters": [p.node]}}
	vs := rule.violations with input as correctness_test.swagger_input({"format": "swagger", "version": "2.0", "schemas": [], "schemasOfType": {}, "parameters": [p], "operations": [op], "webhooks": [], "callbacks": [], "pathItems": [], "document": {"paths": {"/a": {"get": op.node}}}})
	vs == {{"path": ["paths", "/a", "get", "parameters", 0, "type"], "message": `parameter "ids" of GET /a is of type array but has no items; say what the array holds`}}
}
