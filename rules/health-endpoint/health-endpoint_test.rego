package specgate.rules["health-endpoint_test"]

import data.specgate.rules["health-endpoint"] as rule

op(path, method) := {"path": path, "method": method}

doc := {"openapi": "3.1.0", "paths": {}}

test_both_present if {
	count(rule.violations) == 0 with input as {"document": doc, "operations": [op("/health", "get"), op("/health/info", "get")]}
}

test_prefix_and_trailing_slash if {
	count(rule.violations) == 0 with input as {"document": doc, "operations": [op("/api/v1/health/", "get"), op("/api/v1/health/info/", "get")]}
}

test_other_method_does_not_count if {
	vs := rule.violations with input as {"document": doc, "operations": [op("/health", "post"), op("/health/info", "get")]}
	vs == {{"path": ["paths"], "message": "the API has no GET /health operation; health checks need GET on paths ending in /health and /health/info"}}
}

test_both_missing_is_one_violation if {
	vs := rule.violations with input as {"document": doc, "operations": [op("/pets", "get")]}
	count(vs) == 1
	some v in vs
	v.message == "the API has no GET /health and no GET /health/info operation; health checks need GET on paths ending in /health and /health/info"
}

test_no_paths_key_points_at_root if {
	vs := rule.violations with input as {"document": {"openapi": "3.1.0"}, "operations": []}
	some v in vs
	v.path == []
}

test_suffix_must_be_a_whole_segment if {
	vs := rule.violations with input as {"document": doc, "operations": [op("/myhealth", "get"), op("/myhealth/info", "get")]}
	count(vs) == 1
}

test_templated_prefix_is_a_resource_not_the_service if {
	vs := rule.violations with input as {"document": doc, "operations": [op("/repos/{owner}/{repo}/pages/health", "get"), op("/health/info", "get")]}
	{v.message | some v in vs} == {"the API has no GET /health operation; health checks need GET on paths ending in /health and /health/info"}
}

# Paths that hold "/health" but do not end in it are not health endpoints.
test_health_inside_a_path_does_not_count if {
	vs := rule.violations with input as {"document": doc, "operations": [op("/healthcheck", "get"), op("/health/status", "get"), op("/health/info/x", "get")]}
	vs == {{"path": ["paths"], "message": "the API has no GET /health and no GET /health/info operation; health checks need GET on paths ending in /health and /health/info"}}
}
