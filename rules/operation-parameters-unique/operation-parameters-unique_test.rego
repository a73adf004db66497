package specgate.rules["operation-parameters-unique_test"]

import data.specgate.rules["operation-parameters-unique"] as rule

doc(format, paths) := {
	"format": format, "version": "x",
	"pathItems": [{"path": p, "node": item, "source": ["paths", p]} | some p, item in paths],
	"operations": [{"path": p, "method": m, "webhook": "", "callback": "", "node": op, "source": ["paths", p, m], "requestBody": _request_body(item, op)} |
		some p, item in paths
		some m, op in item
		m != "parameters"
	],
	"webhooks": [], "callbacks": [],
	"document": {"paths": paths},
}

# _request_body stands for the view's request body, which Swagger 2.0
# operations with a body or formData parameter have.
_request_body(item, op) := {} if {
	some p in array.concat(object.get(item, "parameters", []), object.get(op, "parameters", []))
	p["in"] in {"body", "formData"}
} else := null

q(name) := {"name": name, "in": "query"}

test_unique_parameters_pass if {
	count(rule.violations) == 0 with input as doc("openapi", {"/a": {
		"parameters": [q("a"), {"name": "a", "in": "header"}],
		"get": {"parameters": [q("a"), q("b")]},
	}})
}

test_repeated_query_parameter if {
	vs := rule.violations with input as doc("openapi", {"/a": {"get": {"parameters": [q("limit"), q("x"), q("limit")]}}})
	vs == {{"path": ["paths", "/a", "get", "parameters", 2], "message": `GET /a declares query parameter "limit" twice (entries 0 and 2); each name and location appears once`}}
}

test_header_names_ignore_case if {
	vs := rule.violations with input as doc("openapi", {"/a": {"parameters": [{"name": "X-Id", "in": "header"}, {"name": "x-id", "in": "header"}]}})
	vs == {{"path": ["paths", "/a", "parameters", 1], "message": `path /a declares header parameter "x-id" twice (entries 0 and 1); each name and location appears once`}}
}

test_local_refs_are_followed if {
	d := doc("openapi", {"/a": {"get": {"parameters": [{"$ref": "#/components/parameters/L"}, q("limit")]}}})
	vs := rule.violations with input as object.union(d, {"document": object.union(d.document, {"components": {"parameters": {"L": q("limit")}}})})
	count(vs) == 1
}

test_swagger_two_bodies if {
	vs := rule.violations with input as doc("swagger", {"/a": {
		"parameters": [{"name": "a", "in": "body"}],
		"post": {"parameters": [{"name": "b", "in": "body"}]},
	}})
	vs == {{"path": ["paths", "/a", "post", "parameters", 0], "message": `POST /a has 2 in: body parameters ("a", "b"); a request has one body`}}
}

test_swagger_overridden_body_is_one if {
	count(rule.violations) == 0 with input as doc("swagger", {"/a": {
		"parameters": [{"name": "a", "in": "body"}],
		"post": {"parameters": [{"name": "a", "in": "body"}]},
	}})
}

test_swagger_body_and_form if {
	vs := rule.violations with input as doc("swagger", {"/a": {"post": {"parameters": [{"name": "a", "in": "body"}, {"name": "f", "in": "formData"}]}}})
	vs == {{"path": ["paths", "/a", "post", "parameters", 1], "message": `POST /a has both an in: body parameter ("a") and in: formData parameters ("f"); a request body is either a payload or a form`}}
}
