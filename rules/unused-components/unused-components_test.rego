package specgate.rules["unused-components_test"]

import data.specgate.rules["unused-components"] as rule

ref(path, key) := {"ref": key, "file": "", "path": path, "target": [key], "key": key}

doc(components, refs) := {
	"format": "openapi", "version": "3.1.0",
	"document": {"paths": {"/a": {}}, "components": components},
	"refs": refs,
	"extensionRefs": [],
	"refsTo": {k: [r | some r in refs; r.key == k] | some r0 in refs; r0.target != null; k := r0.key},
	"schemasWith": {"discriminator": [{"node": s, "source": ["components", "schemas", n], "name": n} | some n, s in object.get(components, "schemas", {}); s.discriminator]},
}

test_referenced_components_pass if {
	count(rule.violations) == 0 with input as doc(
		{"schemas": {"Pet": {}}, "responses": {"Err": {}}},
		[
			ref(["paths", "/a", "get", "responses", "200"], "#/components/responses/Err"),
			ref(["components", "responses", "Err", "content", "application/json", "schema"], "#/components/schemas/Pet"),
		],
	)
}

test_unreferenced_schema if {
	vs := rule.violations with input as doc({"schemas": {"Legacy": {}}}, [])
	vs == {{"path": ["components", "schemas", "Legacy"], "message": `schema "Legacy" is defined but never referenced; reference it where it belongs or remove it`}}
}

test_self_reference_does_not_count if {
	vs := rule.violations with input as doc({"schemas": {"Node": {}}}, [ref(["components", "schemas", "Node", "properties", "next"], "#/components/schemas/Node")])
	count(vs) == 1
}

test_reference_into_a_component_counts if {
	count(rule.violations) == 0 with input as doc({"schemas": {"Pet": {}}}, [ref(["paths", "/a", "get"], "#/components/schemas/Pet/properties/name")])
}

test_discriminator_mapping_counts if {
	schemas := {"Pet": {"discriminator": {"propertyName": "kind", "mapping": {"dog": "#/components/schemas/Dog", "cat": "Cat"}}}, "Dog": {}, "Cat": {}}
	vs := rule.violations with input as doc({"schemas": schemas}, [])
	vs == {{"path": ["components", "schemas", "Pet"], "message": `schema "Pet" is defined but never referenced; reference it where it belongs or remove it`}}
}

test_unresolved_refs_stop_the_rule if {
	r := object.union(ref(["paths", "/a"], "#/nope"), {"target": null})
	count(rule.violations) == 0 with input as doc({"schemas": {"Legacy": {}}}, [r])
}

test_extension_references_count if {
	d := doc({"examples": {"Ping": {}}}, [])
	count(rule.violations) == 0 with input as object.union(d, {"extensionRefs": [{"ref": "#/components/examples/Ping", "path": ["x-webhooks"]}]})
}
