package specgate.rules["media-type-examples_test"]

import data.specgate.rules["media-type-examples"] as rule

mt(name, node, schema) := {"mediaType": name, "node": node, "schema": schema, "source": ["x"]}

resp(status, mts) := {"status": status, "content": mts, "node": {}, "source": ["paths", "/pets", "get", "responses", status]}

op(method, responses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "requestBody": null, "responses": responses}

run(ops) := vs if vs := rule.violations with input as {"format": "openapi", "operations": ops, "webhooks": [], "callbacks": []}

pet := {"type": "object", "properties": {"id": {"type": "integer"}}}

test_missing_example if {
	vs := run([op("get", [resp("200", [mt("application/json", {}, pet)])])])
	vs == {{"path": ["paths", "/pets", "get", "responses", "200", "content", "application/json"], "message": "GET /pets response 200 has no example for application/json"}}
}

test_examples_anywhere_pass if {
	count(run([op("get", [
		resp("200", [mt("application/json", {"example": {"id": 1}}, pet)]),
		resp("201", [mt("application/json", {"examples": {"one": {"value": {"id": 1}}}}, pet)]),
		resp("202", [mt("application/json", {}, object.union(pet, {"example": {"id": 1}}))]),
		resp("203", [mt("application/json", {}, {"type": "array", "items": object.union(pet, {"examples": [{"id": 1}]})})]),
	])])) == 0
}

test_exempt_bodies if {
	count(run([
		op("get", [resp("200", [mt("application/octet-stream", {}, {"type": "string", "format": "binary"}), mt("text/plain", {}, null)])]),
		op("get", [resp("201", [mt("text/csv", {}, {"type": "string", "contentEncoding": "binary"}), mt("application/json", {}, {"type": ["string", "null"]})])]),
		op("delete", [resp("204", [mt("application/json", {}, pet)])]),
		op("head", [resp("200", [mt("application/json", {}, pet)])]),
	])) == 0
}

test_request_body if {
	o := object.union(op("post", []), {"requestBody": {"content": [mt("application/json", {}, pet)], "source": ["paths", "/pets", "post", "requestBody"]}})
	vs := run([o])
	vs == {{"path": ["paths", "/pets", "post", "requestBody", "content", "application/json"], "message": "the request body of POST /pets has no example for application/json"}}
}

test_swagger_response_examples if {
	r := object.union(resp("200", [mt("application/json", {}, pet), mt("application/xml", {}, pet)]), {"node": {"examples": {"application/json": {"id": 1}}}})
	bad := resp("201", [mt("application/json", {}, pet)])
	vs := rule.violations with input as {"format": "swagger", "operations": [op("get", [r, bad])], "webhooks": [], "callbacks": []}
	vs == {{"path": ["paths", "/pets", "get", "responses", "201", "schema"], "message": "GET /pets response 201 has no example"}}
}
