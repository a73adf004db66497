package specgate.rules["health-schema-status-in-required_test"]

import data.specgate.rules["health-schema-status-in-required"] as rule

src := ["paths", "/health", "get", "responses", "200"]

schema_src := array.concat(src, ["content", "application/health+json", "schema"])

get(path, schema) := {"path": path, "method": "get", "responses": [{
	"status": "200", "source": src,
	"content": [{"mediaType": "application/health+json", "schema": schema, "schemaSource": schema_src}],
}]}

run(ops, schemas) := {"format": "openapi", "document": document(schemas), "operations": ops}

# document holds named schemas where local $refs point: components
# (OpenAPI 3) and definitions (Swagger 2.0).
document(schemas) := {
	"components": {"schemas": {s.name: s.node | some s in schemas}},
	"definitions": {s.name: s.node | some s in schemas},
}

test_required_status_passes if {
	count(rule.violations) == 0 with input as run([get("/health", {"required": ["status"]})], [])
}

test_not_required_points_at_required if {
	vs := rule.violations with input as run([get("/health", {"required": ["uptime"], "properties": {"status": {}}})], [])
	vs == {{
		"path": array.concat(schema_src, ["required"]),
		"message": "the schema of GET /health response 200 (application/health+json) does not list \"status\" in required; a health response must always carry it",
	}}
}

test_no_required_points_at_schema if {
	vs := rule.violations with input as run([get("/api/health/", {"properties": {"status": {}}})], [])
	{v.path | some v in vs} == {schema_src}
}

test_required_in_all_of_member_counts if {
	schema := {"allOf": [{"$ref": "#/components/schemas/Base"}]}
	count(rule.violations) == 0 with input as run([get("/health", schema)], [{"name": "Base", "node": {"required": ["status"]}}])
}

test_missing_schema_is_left_to_health_schema_status if {
	count(rule.violations) == 0 with input as run([get("/health", null)], [])
}
