package specgate.rules["health-schema-checks_test"]

import data.specgate.rules["health-schema-checks"] as rule

src := ["paths", "/health/info", "get", "responses", "200"]

schema_src := array.concat(src, ["schema"])

get(path, schema) := {"path": path, "method": "get", "responses": [{
	"status": "200", "source": src,
	"content": [{"mediaType": "application/json", "schema": schema, "schemaSource": schema_src}],
}]}

run(ops) := {"format": "swagger", "document": {}, "operations": ops}

test_checks_property_passes if {
	count(rule.violations) == 0 with input as run([get("/health/info", {"properties": {"checks": {}}})])
}

test_missing_checks_is_reported if {
	vs := rule.violations with input as run([get("/health/info", {"properties": {"status": {}}})])
	vs == {{
		"path": array.concat(schema_src, ["properties"]),
		"message": "the schema of GET /health/info response 200 (application/json) has no \"checks\" property; add it to tell the state of each dependency the service checks",
	}}
}

test_missing_schema_is_reported if {
	op := {"path": "/health/info", "method": "get", "responses": [{"status": "200", "source": src, "content": []}]}
	vs := rule.violations with input as run([op])
	{v.message | some v in vs} == {"GET /health/info response 200 has no schema; describe a body with a \"checks\" property telling the state of each dependency the service checks"}
}

test_health_is_not_judged if {
	count(rule.violations) == 0 with input as run([get("/health", {"properties": {"status": {}}})])
}
