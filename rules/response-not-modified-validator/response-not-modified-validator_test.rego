package specgate.rules["response-not-modified-validator_test"]

import data.specgate.rules["response-not-modified-validator"] as rule

resp(status, headers) := {"status": status, "headers": [{"name": h} | some h in headers], "source": ["paths", "/pets", "get", "responses", status]}

op(method, responses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "responses": responses}

run(ops) := vs if vs := rule.violations with input as {"operations": ops, "webhooks": [], "callbacks": []}

test_304_without_validator if {
	vs := run([op("get", [resp("200", ["Link"]), resp("304", [])])])
	vs == {{"path": ["paths", "/pets", "get", "responses", "200"], "message": "GET /pets response 200 declares no ETag or Last-Modified header, yet the operation answers 304 Not Modified; clients need one of them to make a conditional request"}}
}

test_validators_pass if {
	count(run([
		op("get", [resp("200", ["etag"]), resp("304", [])]),
		op("head", [resp("200", ["Last-Modified"]), resp("304", [])]),
		op("get", [resp("200", []), resp("206", ["ETag"]), resp("304", [])]),
	])) == 0
}

test_without_304_or_success_nothing_is_said if {
	count(run([op("get", [resp("200", [])]), op("get", [resp("304", []), resp("404", [])]), op("post", [resp("200", []), resp("304", [])])])) == 0
}

test_lowest_success_is_reported if {
	vs := run([op("get", [resp("206", []), resp("200", []), resp("304", [])])])
	{v.path | some v in vs} == {["paths", "/pets", "get", "responses", "200"]}
}
