package specgate.rules["no-unresolved-ref_test"]

import data.specgate.rules["no-unresolved-ref"] as rule

ref(value, file, path, resolved, err) := {"ref": value, "file": file, "path": path, "target": _target[resolved], "error": err, "circular": false}

# The input gives a resolved reference's target, null for the others.
_target := {true: ["components", "schemas", "Pet"], false: null}

# refs_input is an input made by hand with refs and, as input.Build
# builds it, its index of the unresolved ones among them: a test document
# (specgate.test_input) has one file, and these name others.
refs_input(refs) := {"refs": refs, "index": {"unresolvedRefs": [r | some r in refs; r.target == null]}}

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

test_resolved_refs_pass if {
	count(rule.violations) == 0 with input as refs_input([
		ref("#/components/schemas/Pet", "", ["paths", "/pets", "get"], true, ""),
		ref("Pet.yaml", "", ["definitions", "Pet"], true, ""),
	])
}

test_unresolved_ref_in_the_entry_file if {
	msg := `$ref "#/components/schemas/Pets" does not resolve: the document root of api.yaml has no "Pets"`
	vs := rule.violations with input as refs_input([ref("#/components/schemas/Pets", "", ["paths", "/pets", "get", "responses", "200"], false, msg)])
	vs == {{"path": ["paths", "/pets", "get", "responses", "200", "$ref"], "message": msg}}
}

test_unresolved_ref_in_another_file_names_it if {
	msg := `cannot resolve $ref "../common/Missing.yaml": no such file or directory`
	vs := rule.violations with input as refs_input([ref("../common/Missing.yaml", "spec/Pet.yaml", ["properties", "error"], false, msg)])
	vs == {{"path": ["properties", "error", "$ref"], "message": msg, "file": "spec/Pet.yaml"}}
}

test_message_without_an_error if {
	vs := rule.violations with input as refs_input([ref("#/x", "", ["a"], false, "")])
	vs == {{"path": ["a", "$ref"], "message": `$ref "#/x" does not resolve`}}
}
