package specgate.rules["no-response-content-type-header_test"]

import data.specgate.rules["no-response-content-type-header"] as rule

header(name, _) := name

src(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

# run lints, as lint does (specgate.test_input), a document of the format
# whose GET /pets answers 200 with the headers.
run(format, headers) := vs if {
	hs := {h: {"schema": {"type": "string"}, "type": "string"} | some h in headers}
	i := specgate.test_input(_doc(format, hs))
	vs := rule.violations with input as i
}

_doc("openapi", headers) := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"get": {
	"responses": {"200": {"description": "d", "headers": headers}},
}}}}

_doc("swagger", headers) := {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"get": {
	"responses": {"200": {"description": "d", "headers": headers}},
}}}}

test_content_type_is_reported_without_case if {
	vs := run("openapi", [header("content-type", src("content-type")), header("X-Rate", src("X-Rate"))])
	vs == {{"path": src("content-type"), "message": `response header "content-type" is ignored in OpenAPI 3; the media types under the response's content set Content-Type`}}
}

test_swagger_message if {
	vs := run("swagger", [header("Content-Type", src("Content-Type"))])
	vs == {{"path": src("Content-Type"), "message": `response header "Content-Type" repeats what produces declares; list the response's media types in produces instead`}}
}

test_other_headers_pass if {
	count(run("openapi", [header("Content-Language", src("Content-Language")), header("Location", src("Location"))])) == 0
}
