package specgate.rules["ref-siblings_test"]

import data.specgate.rules["ref-siblings"] as rule

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

_info := {"title": "t", "version": "1"}

# oas lints an OpenAPI document of that version with these components.
oas(version, components) := run({"openapi": version, "info": _info, "paths": {}, "components": components})

test_plain_refs_pass if {
	count(oas("3.0.3", {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"type": "string"}}})) == 0
}

test_description_in_3_0 if {
	vs := oas("3.0.3", {"schemas": {
		"Pet": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/User", "description": "who"}}},
		"User": {"type": "object"},
	}})
	vs == {{"path": ["components", "schemas", "Pet", "properties", "owner", "description"], "message": `description beside $ref "#/components/schemas/User" is ignored: in OpenAPI 3.0 a Reference Object takes no other keys`}}
}

test_extensions_and_path_items_pass if {
	vs := run({"openapi": "3.0.3", "info": _info, "paths": {
		"/a": {"$ref": "#/paths/~1b", "get": {"responses": {"200": {"description": "d"}}}},
		"/b": {"get": {"responses": {"200": {"description": "d"}}}},
	}, "components": {"schemas": {"A": {"$ref": "#/components/schemas/B", "x-internal": true}, "B": {"type": "string"}}}})
	count(vs) == 0
}

test_schema_refs_take_anything_in_3_1 if {
	count(oas("3.1.0", {"schemas": {
		"A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B", "nullable": true, "default": "x"}}},
		"B": {"type": "string"},
	}})) == 0
}

test_reference_objects_take_summary_and_description_in_3_1 if {
	vs := run({"openapi": "3.1.0", "info": _info, "paths": {"/a": {"get": {"responses": {"200": {
		"$ref": "#/components/responses/Ok", "summary": "s", "description": "d", "headers": {},
	}}}}}, "components": {"responses": {"Ok": {"description": "d"}}}})
	vs == {{"path": ["paths", "/a", "get", "responses", "200", "headers"], "message": `headers beside $ref "#/components/responses/Ok" is ignored: in OpenAPI 3.1.0 a Reference Object takes only summary and description`}}
}

test_other_files_report_there if {
	i := specgate.test_input_files({
		"test.yaml": {"swagger": "2.0", "info": _info, "paths": {}, "definitions": {"Pet": {"$ref": "pet.yaml#/Pet"}}},
		"pet.yaml": {"Pet": {"type": "object", "properties": {"a": {"$ref": "#/B", "example": "x"}}}, "B": {"type": "string"}},
	})
	vs := rule.violations with input as i
	vs == {{"path": ["Pet", "properties", "a", "example"], "message": `example beside $ref "#/B" is ignored: in Swagger 2.0 a reference is replaced by its target`, "file": "pet.yaml"}}
}
