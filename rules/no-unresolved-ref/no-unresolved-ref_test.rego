package specgate.rules["no-unresolved-ref_test"]

import data.specgate.rules["no-unresolved-ref"] as rule

# run lints, as lint does (specgate.test_input), a document.
run(d) := vs if {
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

test_unresolved_ref_in_a_document if {
	vs := run({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"get": {"responses": {
		"200": {"$ref": "#/components/responses/Ok"},
		"404": {"$ref": "#/components/responses/Nope"},
	}}}}, "components": {"responses": {"Ok": {"description": "d"}}}})
	vs == {{"path": ["paths", "/pets", "get", "responses", "404", "$ref"], "message": `$ref "#/components/responses/Nope" does not resolve: test.yaml#/components/responses has no "Nope"`}}
}

# run_files lints, as lint does (specgate.test_input_files), a document
# of several files.
run_files(files) := vs if {
	i := specgate.test_input_files(files)
	vs := rule.violations with input as i
}

_info := {"title": "t", "version": "1"}

test_resolved_refs_pass if {
	vs := run_files({
		"test.yaml": {"openapi": "3.1.0", "info": _info, "paths": {"/pets": {"get": {"responses": {"200": {
			"description": "d",
			"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
		}}}}}, "components": {"schemas": {"Pet": {"$ref": "Pet.yaml"}}}},
		"Pet.yaml": {"type": "object"},
	})
	count(vs) == 0
}

test_unresolved_ref_in_the_entry_file if {
	vs := run({"swagger": "2.0", "info": _info, "paths": {"/pets": {"get": {"responses": {"200": {
		"description": "d",
		"schema": {"$ref": "#/definitions/Pets"},
	}}}}}})
	vs == {{"path": ["paths", "/pets", "get", "responses", "200", "schema", "$ref"], "message": `$ref "#/definitions/Pets" does not resolve: the document root of test.yaml has no "definitions"`}}
}

test_unresolved_ref_in_another_file_names_it if {
	vs := run_files({
		"test.yaml": {"swagger": "2.0", "info": _info, "paths": {}, "definitions": {"Pet": {"$ref": "spec/Pet.yaml"}}},
		"spec/Pet.yaml": {"type": "object", "properties": {"error": {"$ref": "../common/Missing.yaml"}}},
	})
	[v] := [v | some v in vs]
	v.path == ["properties", "error", "$ref"]
	v.file == "spec/Pet.yaml"
	startswith(v.message, `cannot resolve $ref "../common/Missing.yaml": `)
}

# The loader gives every unresolved reference its reason; the rule still
# reports one without (its input made by hand), rather than none.
test_message_without_an_error if {
	vs := rule.violations with input as {"index": {"unresolvedRefs": [{"ref": "#/x", "file": "", "path": ["a"], "target": null, "error": "", "circular": false}]}}
	vs == {{"path": ["a", "$ref"], "message": `$ref "#/x" does not resolve`}}
}
