package specgate.lib.security_test

import data.specgate.lib.security

v(source) := {"name": "", "node": {}, "source": source}

param := {"name": "tags", "in": "query", "schemaSource": ["paths", "/a", "get", "parameters", 0, "schema"]}

label(x) := l if {
	l := security.schema_label(x) with input as {"format": "openapi", "parameters": [param], "operations": []}
}

test_labels if {
	label({"name": "Pet", "node": {}, "source": ["components", "schemas", "Pet"]}) == `schema "Pet"`
	label(v(["components", "schemas", "Pet", "properties", "name"])) == `property "name" in schema "Pet"`
	label(v(["paths", "/a", "get", "parameters", 0, "schema"])) == `query parameter "tags"`
	label(v(["paths", "/a", "get", "parameters", 0, "schema", "items"])) == `items of query parameter "tags"`
	label(v(["components", "schemas", "Pet", "properties", "tags", "items"])) == `array items in schema "Pet"`
	label(v(["components", "schemas", "Map", "additionalProperties"])) == `additional properties in schema "Map"`
	label(v(["paths", "/a", "post", "requestBody", "content", "application/json", "schema"])) == "the request body of POST /a"
	label(v(["paths", "/a", "post", "requestBody", "content", "application/json", "schema", "oneOf", 1])) == "a schema in the request body of POST /a"
	label(v(["components", "requestBodies", "NewPet", "content", "application/json", "schema"])) == `the request body "NewPet"`
	label(v(["paths", "/a", "get", "responses", "200", "content", "application/json", "schema"])) == "response 200 of GET /a"
	label(v(["components", "responses", "Error", "content", "application/json", "schema", "properties", "code"])) == `property "code" in response "Error"`
	label(v(["paths", "/a", "get", "parameters", 0, "schema", "oneOf", 1, "items"])) == `array items in query parameter "tags"`
	label(v(["x-other", "schema", "allOf", 0])) == "a schema"
	label(v(["x-other", "schema"])) == "a schema"
}

test_swagger_body_and_form_data if {
	form := {"name": "file", "in": "formData", "node": {"type": "string"}, "source": ["paths", "/a", "post", "parameters", 1]}
	doc := {"format": "swagger", "parameters": [], "operations": [{"parameters": [], "requestBody": {"formData": [form]}}]}
	l1 := security.schema_label(v(["paths", "/a", "post", "parameters", 0, "schema"])) with input as doc
	l1 == "the request body of POST /a"
	l2 := security.schema_label(v(["paths", "/a", "post", "parameters", 1])) with input as doc
	l2 == `formData parameter "file"`
}

test_response_site if {
	op := {"path": "/a", "method": "get", "webhook": "", "callback": "", "node": {"responses": {"404": {"$ref": "#/components/responses/Not~0Found~1Here"}}}}
	shared := security.response_site(op, {"status": "404", "source": ["paths", "/a", "get", "responses", "404"]})
	shared == ["components", "responses", "Not~Found/Here"]
	security.site_label(shared) == `response "Not~Found/Here"`
	inline := security.response_site(op, {"status": "200", "source": ["paths", "/a", "get", "responses", "200"]})
	inline == ["paths", "/a", "get", "responses", "200"]
	security.site_label(inline) == "response 200 of GET /a"
	security.site_label(["paths", "/a", "additionalOperations", "copy", "responses", "201"]) == "response 201 of COPY /a"
}

test_loopback_and_plain_http if {
	security.plain_http("HTTP://example.com")
	security.plain_http("ws://example.com")
	not security.plain_http("https://example.com")
	security.loopback("http://localhost")
	security.loopback("http://user@127.0.0.1:8080/x")
	security.loopback("http://api.localhost/")
	security.loopback("http://[::1]:3000")
	not security.loopback("http://localhost.example.com")
	not security.loopback("http://127.0.0.1.nip.io")
}

# request_doc(schemas) is the input lint builds (specgate.test_input) for
# an OpenAPI 3.1 document whose named schemas (components.schemas) are
# schemas, a list of {"name", "node"}, and whose one operation, POST /a,
# receives every one of them through the anyOf of its request body; the
# tests of the rules that judge what an API receives read it.
request_doc(schemas) := specgate.test_input({
	"openapi": "3.1.0",
	"info": {"title": "t", "version": "1"},
	"paths": {"/a": {"post": {
		"requestBody": {"content": {"application/json": {"schema": {"anyOf": [{"$ref": concat("", ["#/components/schemas/", s.name])} | some s in schemas]}}}},
		"responses": {"204": {"description": "done"}},
	}}},
	"components": {"schemas": {s.name: s.node | some s in schemas}},
})

test_responses_summary_names_the_first_site if {
	lacking := {
		["paths", "/b", "get", "responses", "200"],
		["paths", "/a", "post", "responses", "201"],
		["paths", "/a", "get", "responses", "200"],
	}
	security.responses_summary(lacking, lacking, "success responses") == "3 of 3 success responses, such as response 200 of GET /a"
	shared := lacking | {["components", "responses", "Created"]}
	security.responses_summary(shared, shared, "success responses") == `4 of 4 success responses, such as response "Created"`
}

test_operations_summary_names_the_first_in_the_document if {
	ops := [
		{"path": "/b", "method": "delete", "webhook": "", "callback": ""},
		{"path": "/a", "method": "get", "webhook": "", "callback": ""},
		{"path": "/c", "method": "post", "webhook": "", "callback": ""},
	]
	s := security.operations_summary({1, 2}, {0, 1, 2}, "operations") with input as {"operations": ops}
	s == "2 of 3 operations, such as GET /a"
}

test_describing if {
	ops := [
		{"responses": [{"status": "200"}, {"status": "401"}]},
		{"responses": [{"status": "4XX"}]},
		{"responses": [{"status": "200"}]},
		{"responses": []},
	]
	security.describing({"401", "4XX", "4xx"}) == {0, 1} with input as {"operations": ops}
	security.describing({"500"}) == set() with input as {"operations": ops}
}

# An operation takes input by a parameter or a request body; a body that
# is null or not given at all is none.
test_taking_input if {
	ops := [
		{"parameters": [{"name": "id", "in": "path"}], "requestBody": null},
		{"parameters": [], "requestBody": {"content": []}},
		{"parameters": [], "requestBody": null},
		{"parameters": []},
		{"parameters": [{"name": "q", "in": "query"}], "requestBody": {"content": []}},
	]
	security.taking_input == {0, 1, 4} with input as {"operations": ops}
}
