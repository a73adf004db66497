package specgate.rules["health-info-schema-status_test"]

import data.specgate.rules["health-info-schema-status"] as rule

src(path) := ["paths", path, "get", "responses", "200"]

media(path, schema) := {"mediaType": "application/health+json", "schema": schema, "schemaSource": array.concat(src(path), ["content", "application/health+json", "schema"])}

get(path, content) := {"path": path, "method": "get", "responses": [{"status": "200", "source": src(path), "content": content}]}

run(ops) := vs if vs := rule.violations with input as {"format": "openapi", "document": {}, "operations": ops}

test_status_passes if {
	count(run([get("/health/info", [media("/health/info", {"type": "object", "properties": {"status": {"type": "string"}}})])])) == 0
}

test_missing_status if {
	vs := run([get("/v1/health/info/", [media("/v1/health/info/", {"type": "object", "properties": {"checks": {"type": "object"}}})])])
	vs == {{
		"path": array.concat(src("/v1/health/info/"), ["content", "application/health+json", "schema", "properties"]),
		"message": "the schema of GET /v1/health/info/ response 200 (application/health+json) has no \"status\" property; add it to tell whether the service is up (pass, fail or warn)",
	}}
}

test_only_health_info_is_judged if {
	count(run([get("/health", [media("/health", {"type": "object", "properties": {}})])])) == 0
}

test_templated_prefix_is_not_a_health_endpoint if {
	count(run([get("/sites/{id}/health/info", [media("/sites/{id}/health/info", {"type": "object", "properties": {}})])])) == 0
}
