package specgate.rules["response-429-retry-after_test"]

import data.specgate.rules["response-429-retry-after"] as rule

response(status, headers) := {"status": status, "headers": [{"name": h} | some h in headers], "source": ["paths", "/pets", "get", "responses", status]}

op(method, node, responses) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "node": node, "responses": responses, "source": ["paths", "/pets", method]}

test_inline_429_without_retry_after if {
	vs := rule.violations with input as {"operations": [op("get", {"responses": {"429": {}}}, [response("429", ["X-RateLimit-Limit"]), response("200", [])])]}
	vs == {{"path": ["paths", "/pets", "get", "responses", "429"], "message": "response 429 of GET /pets declares no Retry-After header"}}
}

test_shared_429_is_reported_once_at_its_definition if {
	node := {"responses": {"429": {"$ref": "#/components/responses/Too~1Many"}}}
	vs := rule.violations with input as {"operations": [op("get", node, [response("429", [])]), op("put", node, [response("429", [])])]}
	vs == {{"path": ["components", "responses", "Too/Many"], "message": `response "Too/Many" declares no Retry-After header`}}
}

test_retry_after_in_any_case_passes if {
	count(rule.violations) == 0 with input as {"operations": [op("get", {}, [response("429", ["retry-after"])])]}
}

test_api_without_retry_after_is_reported_once if {
	put := object.union(response("429", []), {"source": ["paths", "/pets", "put", "responses", "429"]})
	vs := rule.violations with input as {"operations": [op("get", {}, [response("429", [])]), op("put", {}, [put])]}
	vs == {{"path": ["paths"], "message": "no Retry-After header in 2 of 2 429 responses, such as response 429 of GET /pets"}}
}
