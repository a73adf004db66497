package specgate.rules["no-request-body_test"]

import data.specgate.rules["no-request-body"] as rule

body(schemas) := {"content": [{"mediaType": "application/json", "schema": s} | some s in schemas], "formData": [], "source": ["paths", "/r", "get", "requestBody"]}

op(method, rb) := {"path": "/r", "method": method, "webhook": "", "callback": "", "requestBody": rb}

run(ops) := vs if vs := rule.violations with input as {"operations": ops, "webhooks": [], "callbacks": []}

test_get_head_delete_bodies if {
	b := body([{"type": "object", "properties": {"q": {"type": "string"}}}])
	vs := run([op("get", b), op("post", b), op("delete", b)])
	vs == {
		{"path": ["paths", "/r", "get", "requestBody"], "message": "GET /r has a request body; the body of a GET request has no defined meaning, and servers, proxies and clients may drop or reject it"},
		{"path": ["paths", "/r", "get", "requestBody"], "message": "DELETE /r has a request body; the body of a DELETE request has no defined meaning, and servers, proxies and clients may drop or reject it"},
	}
}

test_no_body_passes if {
	count(run([op("get", null), op("head", null)])) == 0
}

test_body_that_admits_nothing_passes if {
	count(run([op("get", body([{"type": "object", "properties": {}, "additionalProperties": false}]))])) == 0
}

test_open_empty_object_is_a_body if {
	count(run([op("get", body([{"type": "object"}]))])) == 1
}
