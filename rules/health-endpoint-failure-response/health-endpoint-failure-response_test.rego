package specgate.rules["health-endpoint-failure-response_test"]

import data.specgate.rules["health-endpoint-failure-response"] as rule

get(path, statuses) := {"path": path, "method": "get", "source": ["paths", path, "get"], "responses": [{"status": s} | some s in statuses]}

run(ops) := vs if vs := rule.violations with input as {"operations": ops}

test_failure_declared if {
	count(run([get("/health", ["200", "503"]), get("/health/info", ["200", "5XX"])])) == 0
}

test_failure_missing if {
	vs := run([get("/v1/health", ["200", "default", "401"]), get("/health/info", ["200"]), get("/pets", ["200"])])
	vs == {
		{"path": ["paths", "/v1/health", "get", "responses"], "message": "GET /v1/health declares no 5xx response; a failing service answers 503 with status fail, and monitors act on that status code"},
		{"path": ["paths", "/health/info", "get", "responses"], "message": "GET /health/info declares no 5xx response; a failing service answers 503 with status fail, and monitors act on that status code"},
	}
}

test_other_methods_and_resource_health_are_not_judged if {
	post := object.union(get("/health", ["200"]), {"method": "post"})
	count(run([post, get("/repos/{id}/pages/health", ["200"])])) == 0
}
