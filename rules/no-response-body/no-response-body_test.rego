package specgate.rules["no-response-body_test"]

import data.specgate.rules["no-response-body"] as rule

resp(status, types) := {"status": status, "content": [{"mediaType": t} | some t in types], "source": ["paths", "/p", "get", "responses", status]}

op(method, responses) := {"path": "/p", "method": method, "webhook": "", "callback": "", "responses": responses}

run(ops) := vs if vs := rule.violations with input as {"format": "openapi", "operations": ops, "webhooks": [], "callbacks": []}

test_bodiless_statuses if {
	vs := run([op("delete", [resp("204", ["application/json"]), resp("200", ["application/json"])]), op("get", [resp("304", ["text/plain", "application/json"])])])
	vs == {
		{"path": ["paths", "/p", "get", "responses", "204", "content"], "message": "DELETE /p response 204 declares a body (application/json); a 204 response never has one"},
		{"path": ["paths", "/p", "get", "responses", "304", "content"], "message": "GET /p response 304 declares a body (text/plain, application/json); a 304 response never has one"},
	}
}

test_head if {
	vs := run([op("head", [resp("200", ["application/json"]), resp("204", ["application/json"]), resp("404", [])])])
	{v.message | some v in vs} == {
		"HEAD /p response 200 declares a body (application/json); a response to HEAD never has one",
		"HEAD /p response 204 declares a body (application/json); a response to HEAD never has one",
	}
}

test_empty_content_passes if {
	count(run([op("delete", [resp("204", [])]), op("head", [resp("200", [])])])) == 0
}

test_swagger_points_at_schema if {
	vs := rule.violations with input as {"format": "swagger", "operations": [op("delete", [resp("204", ["application/json"])])], "webhooks": [], "callbacks": []}
	{v.path | some v in vs} == {["paths", "/p", "get", "responses", "204", "schema"]}
}
