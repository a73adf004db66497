package specgate.rules["health-info-schema-status-in-required_test"]

import data.specgate.rules["health-info-schema-status-in-required"] as rule

src := ["paths", "/health/info", "get", "responses", "200"]

schema_src := array.concat(src, ["content", "application/json", "schema"])

get(path, schema) := {"path": path, "method": "get", "responses": [{
	"status": "200", "source": src,
	"content": [{"mediaType": "application/json", "schema": schema, "schemaSource": schema_src}],
}]}

run(ops) := {"format": "openapi", "document": {}, "operations": ops}

test_required_status_passes if {
	count(rule.violations) == 0 with input as run([get("/health/info", {"required": ["status", "checks"]})])
}

test_not_required_is_reported if {
	vs := rule.violations with input as run([get("/v2/health/info", {"required": ["checks"]})])
	vs == {{
		"path": array.concat(schema_src, ["required"]),
		"message": "the schema of GET /v2/health/info response 200 (application/json) does not list \"status\" in required; a health response must always carry it",
	}}
}

test_health_is_not_judged if {
	count(rule.violations) == 0 with input as run([get("/health", {})])
}

test_missing_schema_says_nothing if {
	count(rule.violations) == 0 with input as run([get("/health/info", null)])
}
