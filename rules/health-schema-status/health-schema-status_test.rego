package specgate.rules["health-schema-status_test"]

import data.specgate.rules["health-schema-status"] as rule

src := ["paths", "/health", "get", "responses", "200"]

media(type, schema) := {
	"mediaType": type,
	"schema": schema,
	"schemaSource": array.concat(src, ["content", type, "schema"]),
}

get(path, content) := {"path": path, "method": "get", "responses": [{"status": "200", "source": src, "content": content}]}

run(ops, schemas) := {"format": "openapi", "document": document(schemas), "operations": ops}

# document holds named schemas where local $refs point: components
# (OpenAPI 3) and definitions (Swagger 2.0).
document(schemas) := {
	"components": {"schemas": {s.name: s.node | some s in schemas}},
	"definitions": {s.name: s.node | some s in schemas},
}

health := {"type": "object", "properties": {"status": {"type": "string"}}}

test_status_property_passes if {
	count(rule.violations) == 0 with input as run([get("/health", [media("application/json", health)])], [])
}

test_missing_status_points_at_properties if {
	schema := {"type": "object", "properties": {"uptime": {"type": "integer"}}}
	vs := rule.violations with input as run([get("/health", [media("application/json", schema)])], [])
	vs == {{
		"path": array.concat(src, ["content", "application/json", "schema", "properties"]),
		"message": "the schema of GET /health response 200 (application/json) has no \"status\" property; add it to tell whether the service is up (pass, fail or warn)",
	}}
}

test_no_properties_points_at_schema if {
	vs := rule.violations with input as run([get("/health", [media("application/json", {"type": "string"})])], [])
	{v.path | some v in vs} == {array.concat(src, ["content", "application/json", "schema"])}
}

test_health_json_schema_is_preferred if {
	content := [media("application/json", health), media("application/health+json", {"type": "object"})]
	vs := rule.violations with input as run([get("/health", content)], [])
	{v.message | some v in vs} == {"the schema of GET /health response 200 (application/health+json) has no \"status\" property; add it to tell whether the service is up (pass, fail or warn)"}
}

test_first_media_type_with_a_schema_is_used if {
	content := [media("application/health+json", null), media("text/plain", null), media("application/json", health)]
	count(rule.violations) == 0 with input as run([get("/health", content)], [])
}

test_all_of_members_count if {
	schema := {"allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"uptime": {}}}]}
	base := {"name": "Base", "node": health}
	count(rule.violations) == 0 with input as run([get("/health", [media("application/json", schema)])], [base])
}

test_inline_all_of_member_counts if {
	schema := {"allOf": [health]}
	count(rule.violations) == 0 with input as run([get("/health", [media("application/json", schema)])], [])
}

test_all_of_without_status_is_reported if {
	schema := {"allOf": [{"$ref": "#/definitions/Base"}]}
	base := {"name": "Base", "node": {"properties": {"uptime": {}}}}
	vs := rule.violations with input as run([get("/health", [media("application/json", schema)])], [base])
	count(vs) == 1
}

test_unresolvable_all_of_says_nothing if {
	schema := {"allOf": [{"$ref": "common.yaml#/Base"}]}
	count(rule.violations) == 0 with input as run([get("/health", [media("application/json", schema)])], [])
}

test_missing_schema_is_reported_on_the_response if {
	vs := rule.violations with input as run([get("/health", [media("application/json", null)])], [])
	vs == {{
		"path": src,
		"message": "GET /health response 200 has no schema; describe a body with a \"status\" property telling whether the service is up (pass, fail or warn)",
	}}
}

test_health_info_is_not_judged if {
	count(rule.violations) == 0 with input as run([get("/health/info", [media("application/json", {})])], [])
}

test_missing_success_response_says_nothing if {
	op := {"path": "/health", "method": "get", "responses": [{"status": "500", "source": src, "content": []}]}
	count(rule.violations) == 0 with input as run([op], [])
}

test_inline_all_of_member_without_status_is_reported if {
	schema := {"allOf": [{"properties": {"uptime": {}}}, {"properties": {"version": {}}}]}
	vs := rule.violations with input as run([get("/health", [media("application/json", schema)])], [])
	{v.path | some v in vs} == {array.concat(src, ["content", "application/json", "schema"])}
}

test_property_refined_by_several_members_is_no_conflict if {
	schema := {"properties": {"status": {"type": "string"}}, "allOf": [{"properties": {"status": {"enum": ["pass"]}}}]}
	count(rule.violations) == 0 with input as run([get("/health", [media("application/json", schema)])], [])
}
