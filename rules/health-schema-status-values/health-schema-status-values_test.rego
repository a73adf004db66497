package specgate.rules["health-schema-status-values_test"]

import data.specgate.rules["health-schema-status-values"] as rule

src(path) := ["paths", path, "get", "responses", "200"]

body(path) := array.concat(src(path), ["content", "application/health+json", "schema"])

get(path, schema) := {"path": path, "method": "get", "responses": [{"status": "200", "source": src(path), "content": [{"mediaType": "application/health+json", "schema": schema, "schemaSource": body(path)}]}]}

run(ops, doc) := vs if vs := rule.violations with input as {"format": "openapi", "document": doc, "operations": ops}

with_status(status) := {"type": "object", "properties": {"status": status}}

test_format_values_and_aliases_pass if {
	count(run([
		get("/health", with_status({"type": "string", "enum": ["pass", "fail", "warn"]})),
		get("/health/info", with_status({"type": "string", "enum": ["UP", "DOWN"]})),
		get("/v2/health", with_status({"type": "string"})),
	], {})) == 0
}

test_unknown_values if {
	vs := run([get("/health", with_status({"type": "string", "enum": ["pass", "fail", "degraded", null]}))], {})
	vs == {{
		"path": array.concat(body("/health"), ["properties", "status", "enum"]),
		"message": `the "status" of GET /health response 200 (application/health+json) allows "degraded", null, which the health check response format does not know; use pass, fail and warn`,
	}}
}

test_missing_fail if {
	vs := run([get("/health", with_status({"enum": ["ok", "warn"]}))], {})
	vs == {{
		"path": array.concat(body("/health"), ["properties", "status", "enum"]),
		"message": `the "status" of GET /health response 200 (application/health+json) has no value for fail; a health response must be able to say fail`,
	}}
}

test_status_behind_refs_and_all_of if {
	doc := {"components": {"schemas": {
		"Status": {"type": "string", "enum": ["healthy", "unhealthy"]},
		"Base": {"type": "object", "properties": {"status": {"$ref": "#/components/schemas/Status"}}},
	}}}
	schema := {"allOf": [{"$ref": "#/components/schemas/Base"}, {"type": "object"}]}
	vs := run([get("/health", schema)], doc)
	{v.path | some v in vs} == {["components", "schemas", "Status", "enum"]}
	count(vs) == 3
}
