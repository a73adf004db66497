package specgate.rules["health-schema-checks-in-required_test"]

import data.specgate.rules["health-schema-checks-in-required"] as rule

src := ["paths", "/health/info", "get", "responses", "200"]

schema_src := array.concat(src, ["content", "application/json", "schema"])

get(path, schema) := {"path": path, "method": "get", "responses": [{
	"status": "200", "source": src,
	"content": [{"mediaType": "application/json", "schema": schema, "schemaSource": schema_src}],
}]}

run(ops) := {"format": "openapi", "document": {}, "operations": ops}

test_required_checks_passes if {
	count(rule.violations) == 0 with input as run([get("/health/info", {"required": ["status", "checks"]})])
}

test_not_required_is_reported if {
	vs := rule.violations with input as run([get("/health/info", {"required": ["status"]})])
	vs == {{
		"path": array.concat(schema_src, ["required"]),
		"message": "the schema of GET /health/info response 200 (application/json) does not list \"checks\" in required; a health response must always carry it",
	}}
}

test_health_is_not_judged if {
	count(rule.violations) == 0 with input as run([get("/health", {"required": ["status"]})])
}
