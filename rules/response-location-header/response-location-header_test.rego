package specgate.rules["response-location-header_test"]

import data.specgate.rules["response-location-header"] as rule

# run lints a document as lint does (specgate.test_input).
run(d) := vs if {
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

resp(headers) := {"description": "d", "headers": {h: {"schema": {"type": "string"}} | some h in headers}}

oas(ops) := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": ops}}

test_post_201_without_location if {
	vs := run(oas({"post": {"responses": {"201": resp(["ETag"])}}}))
	vs == {{"path": ["paths", "/pets", "post", "responses", "201"], "message": "POST /pets response 201 declares no Location header; clients find the created resource there"}}
}

test_location_any_case_passes if {
	count(run(oas({"post": {"responses": {"201": resp(["location"]), "302": resp(["LOCATION"])}}}))) == 0
}

test_put_201_is_not_checked if {
	count(run(oas({"put": {"responses": {"201": resp([])}}}))) == 0
}

test_redirects if {
	vs := run(oas({"get": {"responses": {"301": resp([]), "304": resp([]), "307": resp([])}}}))
	vs == {
		{"path": ["paths", "/pets", "get", "responses", "301"], "message": "GET /pets response 301 declares no Location header; clients need it to follow the redirect"},
		{"path": ["paths", "/pets", "get", "responses", "307"], "message": "GET /pets response 307 declares no Location header; clients need it to follow the redirect"},
	}
}

test_shared_response_is_named_by_its_ref if {
	d := object.union(
		oas({"post": {"responses": {"201": {"$ref": "#/components/responses/Created"}}}}),
		{"components": {"responses": {"Created": resp([])}}},
	)
	run(d) == {{"path": ["components", "responses", "Created"], "message": "response #/components/responses/Created (used by POST /pets) declares no Location header; clients find the created resource there"}}
}
