package specgate.rules["no-response-body_test"]

import data.specgate.rules["no-response-body"] as rule

# run lints a document as lint does (specgate.test_input).
run(d) := vs if {
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

body(types) := {"content": {t: {"schema": {"type": "object"}} | some t in types}}

oas(ops) := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/p": ops}}

test_bodiless_statuses if {
	vs := run(oas({
		"delete": {"responses": {"204": object.union({"description": "d"}, body(["application/json"])), "200": object.union({"description": "d"}, body(["application/json"]))}},
		"get": {"responses": {"304": object.union({"description": "d"}, body(["text/plain", "application/json"]))}},
	}))
	vs == {
		{"path": ["paths", "/p", "delete", "responses", "204", "content"], "message": "DELETE /p response 204 declares a body (application/json); a 204 response never has one"},
		{"path": ["paths", "/p", "get", "responses", "304", "content"], "message": "GET /p response 304 declares a body (application/json, text/plain); a 304 response never has one"},
	}
}

test_head if {
	vs := run(oas({"head": {"responses": {
		"200": object.union({"description": "d"}, body(["application/json"])),
		"204": object.union({"description": "d"}, body(["application/json"])),
		"404": {"description": "d"},
	}}}))
	{v.message | some v in vs} == {
		"HEAD /p response 200 declares a body (application/json); a response to HEAD never has one",
		"HEAD /p response 204 declares a body (application/json); a response to HEAD never has one",
	}
}

test_empty_content_passes if {
	count(run(oas({"delete": {"responses": {"204": {"description": "d"}}}, "head": {"responses": {"200": {"description": "d"}}}}))) == 0
}

# A shared response is named by its reference and reported where it is
# written, once for all its users.
test_shared_response_is_named_by_its_ref if {
	d := object.union(
		oas({"delete": {"responses": {"204": {"$ref": "#/components/responses/Gone"}}}, "post": {"responses": {"204": {"$ref": "#/components/responses/Gone"}}}}),
		{"components": {"responses": {"Gone": object.union({"description": "d"}, body(["application/json"]))}}},
	)
	run(d) == {{"path": ["components", "responses", "Gone", "content"], "message": "response #/components/responses/Gone (used by POST /p and 1 other operation) declares a body (application/json); a 204 response never has one"}}
}

test_swagger_points_at_schema if {
	vs := run(`
swagger: "2.0"
info: {title: t, version: "1"}
produces: [application/json]
paths:
  /p:
    delete:
      responses:
        "204": {description: d, schema: {type: object}}
`)
	{v.path | some v in vs} == {["paths", "/p", "delete", "responses", "204", "schema"]}
}
