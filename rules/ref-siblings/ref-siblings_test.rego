package specgate.rules["ref-siblings_test"]

import data.specgate.rules["ref-siblings"] as rule

ref(path, target, siblings) := {"ref": "#/x", "file": "", "path": path, "target": target, "siblings": siblings}

# doc is an input made by hand with refs and, as input.Build builds it,
# its index of those with siblings: a test document (specgate.test_input)
# has one file, and one of these is in another.
doc(format, version, refs) := {"format": format, "version": version, "refs": refs, "index": {"refsWithSiblings": [r | some r in refs; count(r.siblings) > 0]}}

# run lints, as lint does (specgate.test_input), a document.
run(d) := vs if {
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

test_siblings_in_a_document if {
	vs := run({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses": {
		"200": {"$ref": "#/components/responses/Ok", "description": "shadowed", "x-note": "kept"},
	}}}}, "components": {"responses": {"Ok": {"description": "d"}}}})
	vs == {{"path": ["paths", "/a", "get", "responses", "200", "description"], "message": `description beside $ref "#/components/responses/Ok" is ignored: in OpenAPI 3.0 a Reference Object takes no other keys`}}
}

test_plain_refs_pass if {
	count(rule.violations) == 0 with input as doc("openapi", "3.0.3", [ref(["a"], ["b"], [])])
}

test_description_in_3_0 if {
	vs := rule.violations with input as doc("openapi", "3.0.3", [ref(["components", "schemas", "Pet", "properties", "owner"], ["components", "schemas", "User"], ["description"])])
	vs == {{"path": ["components", "schemas", "Pet", "properties", "owner", "description"], "message": `description beside $ref "#/x" is ignored: in OpenAPI 3.0 a Reference Object takes no other keys`}}
}

test_extensions_and_path_items_pass if {
	count(rule.violations) == 0 with input as doc("openapi", "3.0.3", [
		ref(["components", "schemas", "A"], ["b"], ["x-internal"]),
		ref(["paths", "/a"], ["b"], ["get"]),
	])
}

test_schema_refs_take_anything_in_3_1 if {
	count(rule.violations) == 0 with input as doc("openapi", "3.1.0", [ref(["components", "schemas", "A", "properties", "b"], ["components", "schemas", "B"], ["nullable", "default"])])
}

test_reference_objects_take_summary_and_description_in_3_1 if {
	path := ["paths", "/a", "get", "responses", "200"]
	vs := rule.violations with input as doc("openapi", "3.1.0", [ref(path, ["components", "responses", "Ok"], ["description", "summary", "headers"])])
	vs == {{"path": array.concat(path, ["headers"]), "message": `headers beside $ref "#/x" is ignored: in OpenAPI 3.1.0 a Reference Object takes only summary and description`}}
}

test_other_files_report_there if {
	r := object.union(ref(["Pet", "properties", "a"], ["B"], ["example"]), {"file": "pet.yaml"})
	vs := rule.violations with input as doc("swagger", "2.0", [r])
	vs == {{"path": ["Pet", "properties", "a", "example"], "message": `example beside $ref "#/x" is ignored: in Swagger 2.0 a reference is replaced by its target`, "file": "pet.yaml"}}
}
