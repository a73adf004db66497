package specgate.rules["health-endpoint-media-type_test"]

import data.specgate.rules["health-endpoint-media-type"] as rule

resp(status, types) := {
	"status": status,
	"source": ["paths", "/health", "get", "responses", status],
	"content": [{"mediaType": t, "schema": {"type": "object"}} | some t in types],
}

get(path, responses) := {"path": path, "method": "get", "node": {}, "responses": responses}

oas3(ops) := {"format": "openapi", "document": {"openapi": "3.1.0"}, "operations": ops}

test_health_json_passes if {
	count(rule.violations) == 0 with input as oas3([get("/health", [resp("200", ["application/health+json"])])])
}

test_parameters_and_case_are_ignored if {
	count(rule.violations) == 0 with input as oas3([get("/health", [resp("200", ["Application/Health+JSON; charset=utf-8"])])])
}

test_plain_json_is_reported_on_the_response if {
	vs := rule.violations with input as oas3([get("/health", [resp("200", ["application/json", "text/plain"])])])
	vs == {{
		"path": ["paths", "/health", "get", "responses", "200"],
		"message": "GET /health responds 200 with application/json, text/plain; a health endpoint must declare the media type application/health+json",
	}}
}

test_health_info_and_prefix_count if {
	vs := rule.violations with input as oas3([get("/v1/health/info/", [resp("200", ["application/json"])])])
	count(vs) == 1
}

test_lowest_2xx_is_judged if {
	vs := rule.violations with input as oas3([get("/health", [resp("204", []), resp("200", ["application/health+json"])])])
	count(vs) == 0
}

test_2xx_range_counts_after_numeric if {
	ok := rule.violations with input as oas3([get("/health", [resp("2XX", ["application/json"]), resp("201", ["application/health+json"])])])
	count(ok) == 0
	vs := rule.violations with input as oas3([get("/health", [resp("2XX", ["application/json"]), resp("404", ["application/health+json"])])])
	{v.message | some v in vs} == {"GET /health responds 2XX with application/json; a health endpoint must declare the media type application/health+json"}
}

test_no_content_is_reported if {
	vs := rule.violations with input as oas3([get("/health", [resp("200", [])])])
	{v.message | some v in vs} == {"GET /health responds 200 without a media type; a health endpoint must declare the media type application/health+json"}
}

test_swagger_produces_stands_in_without_schema if {
	op := object.union(get("/health", [resp("200", [])]), {"node": {"produces": ["application/health+json"]}})
	count(rule.violations) == 0 with input as {"format": "swagger", "document": {"swagger": "2.0"}, "operations": [op]}
	doc := {"swagger": "2.0", "produces": ["application/json"]}
	vs := rule.violations with input as {"format": "swagger", "document": doc, "operations": [get("/health", [resp("200", [])])]}
	{v.message | some v in vs} == {"GET /health responds 200 with application/json; a health endpoint must declare the media type application/health+json"}
}

test_not_health_endpoints_are_ignored if {
	ops := [
		get("/myhealth", [resp("200", ["application/json"])]),
		get("/health/details", [resp("200", ["application/json"])]),
		{"path": "/health", "method": "post", "node": {}, "responses": [resp("200", ["application/json"])]},
	]
	count(rule.violations) == 0 with input as oas3(ops)
}

test_no_success_response_says_nothing if {
	count(rule.violations) == 0 with input as oas3([get("/health", [resp("503", ["application/json"])])])
}
