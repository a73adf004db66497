package specgate.rules["operation-parameters-unique_test"]

import data.specgate.rules["operation-parameters-unique"] as rule

# run lints a document as lint does: the input is built from it in Go
# (specgate.test_input), parameter keys included.
run(d) := vs if {
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

oas(paths) := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths}

swagger(paths) := {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": paths}

q(name) := {"name": name, "in": "query"}

test_unique_parameters_pass if {
	count(run(oas({"/a": {
		"parameters": [q("a"), {"name": "a", "in": "header"}],
		"get": {"parameters": [q("a"), q("b")]},
	}}))) == 0
}

test_repeated_query_parameter if {
	vs := run(oas({"/a": {"get": {"parameters": [q("limit"), q("x"), q("limit")]}}}))
	vs == {{"path": ["paths", "/a", "get", "parameters", 2], "message": `GET /a declares query parameter "limit" twice (entries 0 and 2); each name and location appears once`}}
}

test_header_names_ignore_case if {
	vs := run(oas({"/a": {"parameters": [{"name": "X-Id", "in": "header"}, {"name": "x-id", "in": "header"}]}}))
	vs == {{"path": ["paths", "/a", "parameters", 1], "message": `path /a declares header parameter "x-id" twice (entries 0 and 1); each name and location appears once`}}
}

test_local_refs_are_followed if {
	d := object.union(oas({"/a": {"get": {"parameters": [{"$ref": "#/components/parameters/L"}, q("limit")]}}}), {"components": {"parameters": {"L": q("limit")}}})
	vs := run(d)
	vs == {{"path": ["paths", "/a", "get", "parameters", 1], "message": `GET /a declares query parameter "limit" twice (entries 0 and 1); each name and location appears once`}}
}

# Entries that cannot be read (a $ref that does not resolve) repeat
# nothing, even when two are alike.
test_unreadable_entries_repeat_nothing if {
	count(run(oas({"/a": {"get": {"parameters": [{"$ref": "#/components/parameters/Nope"}, {"$ref": "#/components/parameters/Nope"}]}}}))) == 0
}

# Webhooks' and callbacks' lists are checked as those under paths.
test_webhook_lists_are_checked if {
	d := object.union(oas({}), {"webhooks": {"ping": {"post": {"parameters": [q("a"), q("a")]}}}})
	vs := run(d)
	vs == {{"path": ["webhooks", "ping", "post", "parameters", 1], "message": `POST webhook ping declares query parameter "a" twice (entries 0 and 1); each name and location appears once`}}
}

test_swagger_two_bodies if {
	vs := run(swagger({"/a": {
		"parameters": [{"name": "a", "in": "body", "schema": {}}],
		"post": {"parameters": [{"name": "b", "in": "body", "schema": {}}]},
	}}))
	vs == {{"path": ["paths", "/a", "post", "parameters", 0], "message": `POST /a has 2 in: body parameters ("a", "b"); a request has one body`}}
}

test_swagger_overridden_body_is_one if {
	count(run(swagger({"/a": {
		"parameters": [{"name": "a", "in": "body", "schema": {}}],
		"post": {"parameters": [{"name": "a", "in": "body", "schema": {}}]},
	}}))) == 0
}

test_swagger_body_and_form if {
	vs := run(swagger({"/a": {"post": {"parameters": [{"name": "a", "in": "body", "schema": {}}, {"name": "f", "in": "formData", "type": "string"}]}}}))
	vs == {{"path": ["paths", "/a", "post", "parameters", 1], "message": `POST /a has both an in: body parameter ("a") and in: formData parameters ("f"); a request body is either a payload or a form`}}
}
