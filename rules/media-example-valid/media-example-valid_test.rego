package specgate.rules["media-example-valid_test"]

import data.specgate.rules["media-example-valid"] as rule

pet := {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}

# doc(op, components) is the input lint builds (specgate.test_input) for
# an OpenAPI 3.0 document whose GET /pets is op, with the components.
doc(op, components) := specgate.test_input({
	"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
	"paths": {"/pets": {"get": op}},
	"components": components,
})

test_valid_examples_pass if {
	op := {"responses": {"200": {"content": {"application/json": {"schema": pet, "example": {"name": "Rex"}, "examples": {"a": {"value": {"name": "Tom"}}, "b": {"externalValue": "x.json"}}}}}}}
	count(rule.violations) == 0 with input as doc(op, {})
}

test_media_example if {
	op := {"responses": {"200": {"content": {"application/json": {"schema": pet, "example": {"id": 1}}}}}}
	vs := rule.violations with input as doc(op, {})
	vs == {{"path": ["paths", "/pets", "get", "responses", "200", "content", "application/json", "example"], "message": `the example of the response 200 of GET /pets (application/json) does not match its schema: name is required`}}
}

test_named_example_value if {
	op := {"requestBody": {"content": {"application/merge-patch+json": {"schema": pet, "examples": {"bad": {"value": {"name": 3}}}}}}}
	vs := rule.violations with input as doc(op, {})
	vs == {{"path": ["paths", "/pets", "get", "requestBody", "content", "application/merge-patch+json", "examples", "bad", "value"], "message": `example "bad" of the request body of GET /pets (application/merge-patch+json) does not match its schema: at name: Invalid type. Expected: string, given: integer`}}
}

test_referenced_example_is_checked_at_each_use if {
	op := {"responses": {"200": {"content": {"application/json": {"schema": pet, "examples": {"one": {"$ref": "#/components/examples/Empty"}}}}}}}
	vs := rule.violations with input as doc(op, {"examples": {"Empty": {"value": {}}}})
	vs == {{"path": ["paths", "/pets", "get", "responses", "200", "content", "application/json", "examples", "one"], "message": `example "one" of the response 200 of GET /pets (application/json) does not match its schema: name is required`}}
}

test_referenced_responses_are_checked_once_in_components if {
	op := {"responses": {"200": {"$ref": "#/components/responses/Pet"}}}
	vs := rule.violations with input as doc(op, {"responses": {"Pet": {"content": {"application/json": {"schema": pet, "example": {}}}}}})
	vs == {{"path": ["components", "responses", "Pet", "content", "application/json", "example"], "message": `the example of response "Pet" (application/json) does not match its schema: name is required`}}
}

test_non_json_media_types_are_left_alone if {
	op := {"responses": {"200": {"content": {"application/xml": {"schema": pet, "example": "<pet/>"}}}}}
	count(rule.violations) == 0 with input as doc(op, {})
}

test_serialized_scalar_parameters_pass if {
	p := {"name": "beta", "in": "query", "schema": {"type": "boolean"}, "examples": {"a": {"value": "true"}}}
	count(rule.violations) == 0 with input as doc({"parameters": [p]}, {})
	bad := json.patch(p, [{"op": "replace", "path": "/examples/a/value", "value": "yes"}])
	count(rule.violations) == 1 with input as doc({"parameters": [bad]}, {})
}

test_form_fields_are_read_as_sent if {
	form := {"type": "object", "properties": {
		"muted": {"type": "boolean"},
		"price": {"type": "number"},
		"events": {"type": "array", "items": {"type": "integer"}},
		"name": {"type": "string"},
	}}
	rule._form_fields({"muted": "true", "price": "12.50", "events": "3", "name": "true"}, form) == {"muted": true, "price": 12.5, "events": [3], "name": "true"}
	kept := rule._form_fields({"muted": "yes", "events": ["1", "2"]}, form)
	kept.muted == "yes"
	json.marshal(kept.events) == `["1","2"]`
}

test_form_examples_are_checked if {
	media := {"schema": {"type": "object", "properties": {"status": {"type": "string", "enum": ["active"]}, "muted": {"type": "boolean"}}}, "examples": {
		"ok": {"value": {"status": "active", "muted": "false"}},
		"bad": {"value": {"status": "1"}},
		"raw": {"value": "status=1"},
	}}
	op := {"requestBody": {"content": {"application/x-www-form-urlencoded": media}}, "responses": {"204": {"description": "ok"}}}
	vs := rule.violations with input as doc(op, {})
	count(vs) == 1
	some v in vs
	v.path == ["paths", "/pets", "get", "requestBody", "content", "application/x-www-form-urlencoded", "examples", "bad", "value"]
}
