package specgate.rules["arazzo-parameter-declared_test"]

import data.specgate.rules["arazzo-parameter-declared"] as rule

param(name, where, k, wl) := {"name": name, "in": where, "source": ["workflows", 0, "steps", 0, "parameters", k], "workflowLevel": wl}

test_declared_and_not if {
	op := {
		"name": "GET /pets (findPets)",
		"parameters": [{"name": "tags", "in": "query"}, {"name": "X-Trace", "in": "header"}, {"name": "id", "in": "path"}],
		"credentials": [{"name": "api_key", "in": "cookie"}],
	}
	step := {"workflow": "w", "id": "s", "kind": "operation", "operation": op, "parameters": [
		param("tags", "query", 0, false),
		param("pet_tags", "query", 1, false),
		param("x-trace", "header", 2, false),
		param("Accept", "header", 3, false),
		param("api_key", "cookie", 4, false),
		param("Authorization", "header", 5, false),
		param("id", "path", 6, false),
		param("other", "path", 7, false),
		param("session", "cookie", 8, true),
	]}
	vs := rule.violations with input as {"arazzo": {"steps": [step, {"id": "t", "operation": null, "parameters": [param("x", "query", 0, false)]}]}}
	vs == {
		{"path": ["workflows", 0, "steps", 0, "parameters", 1], "message": `step "s" sends query parameter "pet_tags": GET /pets (findPets) declares no query parameter "pet_tags" (its query parameters: tags)`},
		{"path": ["workflows", 0, "steps", 0, "parameters", 5], "message": `step "s" sends header parameter "Authorization": GET /pets (findPets) declares no header parameter "Authorization" (OpenAPI declares credentials as security schemes, and the operation requires none that sends it)`},
		{"path": ["workflows", 0, "steps", 0, "parameters", 8], "message": `parameter "session" of workflow "w" is sent by step "s": GET /pets (findPets) declares no cookie parameter "session" (its cookie parameters: api_key)`},
	}
}
