package specgate.rules["unused-components_test"]

import data.specgate.rules["unused-components"] as rule

# run lints a document as lint does (specgate.test_input): the
# references and the components they reach are found in Go.
run(d) := vs if {
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

doc(components) := {
	"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
	"paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/Err"}}}}},
	"components": object.union({"responses": {"Err": {"description": "e"}}}, components),
}

unused(path, word) := {"path": path, "message": sprintf("%s %q is defined but never referenced; reference it where it belongs or remove it", [word, path[count(path) - 1]])}

test_referenced_components_pass if {
	count(run(doc({
		"schemas": {"Pet": {}},
		"responses": {"Err": {"description": "e", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}},
	}))) == 0
}

test_unreferenced_schema if {
	run(doc({"schemas": {"Legacy": {}}})) == {unused(["components", "schemas", "Legacy"], "schema")}
}

test_self_reference_does_not_count if {
	run(doc({"schemas": {"Node": {"properties": {"next": {"$ref": "#/components/schemas/Node"}}}}})) == {unused(["components", "schemas", "Node"], "schema")}
}

# A schema referred to by another unused one counts as referenced: the
# rule reports the root of what is unused, not all of it.
test_reference_from_another_component_counts if {
	run(doc({"schemas": {"A": {"properties": {"b": {"$ref": "#/components/schemas/B"}}}, "B": {}}})) == {unused(["components", "schemas", "A"], "schema")}
}

test_reference_into_a_component_counts if {
	d := doc({"schemas": {"Pet": {"properties": {"name": {"type": "string"}}}}})
	d2 := json.patch(d, [{"op": "add", "path": "/paths/~1a/get/parameters", "value": [{"name": "n", "in": "query", "schema": {"$ref": "#/components/schemas/Pet/properties/name"}}]}])
	count(run(d2)) == 0
}

test_discriminator_mapping_counts if {
	schemas := {
		"Pet": {"discriminator": {"propertyName": "kind", "mapping": {"dog": "#/components/schemas/Dog", "cat": "Cat"}}},
		"Dog": {}, "Cat": {},
	}
	run(doc({"schemas": schemas})) == {unused(["components", "schemas", "Pet"], "schema")}
}

test_unresolved_refs_stop_the_rule if {
	d := doc({"schemas": {"Legacy": {}}})
	d2 := json.patch(d, [{"op": "add", "path": "/paths/~1a/get/requestBody", "value": {"$ref": "#/components/requestBodies/Nope"}}])
	count(run(d2)) == 0
}

test_extension_references_count if {
	d := object.union(doc({"examples": {"Ping": {}}}), {"x-webhooks": {"ping": {"$ref": "#/components/examples/Ping"}}})
	count(run(d)) == 0
}

test_swagger_definitions if {
	d := {
		"swagger": "2.0", "info": {"title": "t", "version": "1"},
		"paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}}}}}},
		"definitions": {"Pet": {}, "Old": {}},
	}
	run(d) == {unused(["definitions", "Old"], "schema")}
}
