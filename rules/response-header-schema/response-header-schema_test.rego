package specgate.rules["response-header-schema_test"]

import data.specgate.rules["response-header-schema"] as rule

src(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

# header(name, node, _) is a header as written; the schema the input
# makes of it is the builder's.
header(name, node, _) := [name, node]

# run lints, as lint does (specgate.test_input), a document of the format
# whose GET /pets answers 200 with the headers.
run(format, headers) := vs if {
	i := specgate.test_input(_doc(format, {name: node | some [name, node] in headers}))
	vs := rule.violations with input as i
}

_doc("openapi", headers) := {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"get": {
	"responses": {"200": {"description": "d", "headers": headers}},
}}}}

_doc("swagger", headers) := {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"get": {
	"responses": {"200": {"description": "d", "headers": headers}},
}}}}

test_oas3_schema_or_content_pass if {
	count(run("openapi", [
		header("A", {"schema": {"type": "integer"}}, {"type": "integer"}),
		header("B", {"content": {"text/plain": {}}}, null),
		header("C", {"$ref": "other.yaml#/H"}, null),
	])) == 0
}

test_oas3_without_schema if {
	vs := run("openapi", [header("X-Rate-Limit", {"description": "left"}, null)])
	vs == {{"path": src("X-Rate-Limit"), "message": `response header "X-Rate-Limit" has no schema; declare its type with schema (or content)`}}
}

test_swagger_needs_type if {
	ok := {"type": "integer"}
	bad := {"description": "left"}
	vs := run("swagger", [header("A", ok, ok), header("B", bad, bad)])
	vs == {{"path": src("B"), "message": `response header "B" has no type; declare it with type (and items for an array)`}}
}
