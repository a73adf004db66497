package specgate.rules["response-location-header_test"]

import data.specgate.rules["response-location-header"] as rule

resp(status, headers) := {"status": status, "headers": [{"name": h} | some h in headers], "source": ["paths", "/pets", "post", "responses", status]}

op(method, responses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "responses": responses}

run(ops) := vs if vs := rule.violations with input as {"operations": ops, "webhooks": [], "callbacks": []}

test_post_201_without_location if {
	vs := run([op("post", [resp("201", ["ETag"])])])
	vs == {{"path": ["paths", "/pets", "post", "responses", "201"], "message": "POST /pets response 201 declares no Location header; clients find the created resource there"}}
}

test_location_any_case_passes if {
	count(run([op("post", [resp("201", ["location"]), resp("302", ["LOCATION"])])])) == 0
}

test_put_201_is_not_checked if {
	count(run([op("put", [resp("201", [])])])) == 0
}

test_redirects if {
	vs := run([op("get", [resp("301", []), resp("304", []), resp("307", [])])])
	vs == {
		{"path": ["paths", "/pets", "post", "responses", "301"], "message": "GET /pets response 301 declares no Location header; clients need it to follow the redirect"},
		{"path": ["paths", "/pets", "post", "responses", "307"], "message": "GET /pets response 307 declares no Location header; clients need it to follow the redirect"},
	}
}

test_shared_response_is_named_by_its_ref if {
	o := object.union(op("post", [resp("201", [])]), {"node": {"responses": {"201": {"$ref": "#/components/responses/Created"}}}})
	vs := rule.violations with input as {"operations": [o], "webhooks": [], "callbacks": []}
	vs == {{"path": ["components", "responses", "Created"], "message": "response #/components/responses/Created (used by POST /pets) declares no Location header; clients find the created resource there"}}
}
