package specgate.rules["response-header-description_test"]

import data.specgate.rules["response-header-description"] as rule

src(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

# run lints, as lint does (specgate.test_input), a document whose GET
# /pets answers 200 with the headers.
run(headers) := vs if {
	d := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"get": {
		"responses": {"200": {"description": "d", "headers": headers}},
	}}}}
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

test_described_and_not if {
	vs := run({
		"X-Rate": {"schema": {"type": "integer"}},
		"X-Id": {"description": "The request's id.", "schema": {"type": "string"}},
		"X-Blank": {"description": "", "schema": {"type": "string"}},
		"X-Ext": {"$ref": "other.yaml#/H"},
	})
	vs == {
		{"path": src("X-Rate"), "message": `response header "X-Rate" has no description`},
		{"path": src("X-Blank"), "message": `response header "X-Blank" has no description`},
	}
}
