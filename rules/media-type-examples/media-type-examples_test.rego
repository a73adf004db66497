package specgate.rules["media-type-examples_test"]

import data.specgate.rules["media-type-examples"] as rule

# run lints a document as lint does (specgate.test_input).
run(d) := vs if {
	i := specgate.test_input(d)
	vs := {v | some v in rule.violations} with input as i
}

oas(ops) := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": ops}}

resp(content) := {"description": "d", "content": content}

pet := {"type": "object", "properties": {"id": {"type": "integer"}}}

test_missing_example if {
	vs := run(oas({"get": {"responses": {"200": resp({"application/json": {"schema": pet}})}}}))
	vs == {{"path": ["paths", "/pets", "get", "responses", "200", "content", "application/json"], "message": "GET /pets response 200 has no example for application/json"}}
}

test_examples_anywhere_pass if {
	count(run(oas({"get": {"responses": {
		"200": resp({"application/json": {"schema": pet, "example": {"id": 1}}}),
		"201": resp({"application/json": {"schema": pet, "examples": {"one": {"value": {"id": 1}}}}}),
		"202": resp({"application/json": {"schema": object.union(pet, {"example": {"id": 1}})}}),
		"203": resp({"application/json": {"schema": {"type": "array", "items": object.union(pet, {"examples": [{"id": 1}]})}}}),
	}}}))) == 0
}

test_exempt_bodies if {
	count(run({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {
		"/a": {"get": {"responses": {"200": resp({"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}, "text/plain": {}})}}},
		"/b": {"get": {"responses": {"201": resp({"text/csv": {"schema": {"type": "string", "contentEncoding": "binary"}}, "application/json": {"schema": {"type": ["string", "null"]}}})}}},
		"/c": {
			"delete": {"responses": {"204": resp({"application/json": {"schema": pet}})}},
			"head": {"responses": {"200": resp({"application/json": {"schema": pet}})}},
		},
	}})) == 0
}

test_request_body if {
	vs := run(oas({"post": {"requestBody": {"content": {"application/json": {"schema": pet}}}, "responses": {"204": {"description": "d"}}}}))
	vs == {{"path": ["paths", "/pets", "post", "requestBody", "content", "application/json"], "message": "the request body of POST /pets has no example for application/json"}}
}

# A shared request body is judged once, where it is written, and named by
# its reference and its users.
test_shared_request_body if {
	body := {"$ref": "#/components/requestBodies/Pet"}
	d := object.union(
		{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {
			"/pets": {"post": {"requestBody": body, "responses": {"204": {"description": "d"}}}},
			"/pets/{id}": {"put": {"requestBody": body, "responses": {"204": {"description": "d"}}}},
		}},
		{"components": {"requestBodies": {"Pet": {"content": {"application/json": {"schema": pet}}}}}},
	)
	run(d) == {{"path": ["components", "requestBodies", "Pet", "content", "application/json"], "message": "request body #/components/requestBodies/Pet (used by POST /pets and 1 other operation) has no example for application/json"}}
}

test_swagger_response_examples if {
	vs := run(`
swagger: "2.0"
info: {title: t, version: "1"}
produces: [application/json, application/xml]
paths:
  /pets:
    get:
      responses:
        "200":
          description: d
          schema: {type: object, properties: {id: {type: integer}}}
          examples: {application/json: {id: 1}}
        "201":
          description: d
          schema: {type: object, properties: {id: {type: integer}}}
`)
	vs == {{"path": ["paths", "/pets", "get", "responses", "201", "schema"], "message": "GET /pets response 201 has no example"}}
}
