package specgate.rules["response-rate-limit-headers_test"]

import data.specgate.rules["response-rate-limit-headers"] as rule

response(status, headers) := {"status": status, "headers": [{"name": h} | some h in headers], "source": ["paths", "/pets", "get", "responses", status]}

op(node, responses) := {"path": "/pets", "method": "get", "webhook": "", "callback": "", "node": node, "responses": responses, "source": ["paths", "/pets", "get"]}

test_success_without_rate_limit_headers if {
	vs := rule.violations with input as {"operations": [op({}, [
		response("200", ["ETag"]),
		response("2XX", []),
		response("201", ["RateLimit"]),
		response("202", ["RateLimit"]),
		response("404", []),
		response("429", []),
	])]}
	vs == {
		{"path": ["paths", "/pets", "get", "responses", "200"], "message": "response 200 of GET /pets declares no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…)"},
		{"path": ["paths", "/pets", "get", "responses", "2XX"], "message": "response 2XX of GET /pets declares no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…)"},
	}
}

test_known_header_families_pass if {
	count(rule.violations) == 0 with input as {"operations": [op({}, [
		response("200", ["RateLimit"]),
		response("201", ["ratelimit-policy"]),
		response("202", ["X-RateLimit-Remaining"]),
		response("204", ["X-Rate-Limit-Limit"]),
	])]}
}

test_shared_response_is_reported_at_its_definition if {
	node := {"responses": {"200": {"$ref": "#/components/responses/Ok"}}}
	vs := rule.violations with input as {"operations": [op(node, [response("200", [])])]}
	{v.path | some v in vs} == {["components", "responses", "Ok"]}
}

test_api_without_rate_limit_headers_is_reported_once if {
	vs := rule.violations with input as {"operations": [op({}, [response("200", []), response("201", []), response("404", [])])]}
	vs == {{"path": ["paths"], "message": "no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…) in 2 of 2 success responses, such as response 200 of GET /pets"}}
}

test_reference_to_another_file_is_reported_at_the_response if {
	node := {"responses": {
		"200": {"$ref": "common.yaml#/Ok"},
		"201": {"$ref": "#/components/responses/Made"},
		"202": {"description": "Accepted"},
		"203": {"description": "Partial"},
	}}
	vs := rule.violations with input as {"operations": [op(node, [
		response("200", []),
		response("201", []),
		response("202", ["RateLimit"]),
		response("203", ["X-RateLimit-Limit"]),
	])]}
	{v.path | some v in vs} == {["paths", "/pets", "get", "responses", "200"], ["components", "responses", "Made"]}
}

test_api_wide_finding_names_the_first_response_lacking_a_header if {
	vs := rule.violations with input as {"operations": [op({}, [response("200", ["RateLimit"]), response("201", []), response("202", [])])]}
	vs == {{"path": ["paths"], "message": "no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…) in 2 of 3 success responses, such as response 201 of GET /pets"}}
}

test_api_wide_finding_counts_a_shared_response_once_at_its_definition if {
	node := {"responses": {"200": {"$ref": "#/components/responses/Ok"}}}
	vs := rule.violations with input as {"operations": [
		op(node, [response("200", [])]),
		object.union(op(node, [response("200", [])]), {"source": ["paths", "/cats", "get"]}),
		op({}, [response("201", []), response("202", ["RateLimit"])]),
	]}
	vs == {{"path": ["paths"], "message": "no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…) in 2 of 3 success responses, such as response \"Ok\""}}
}
