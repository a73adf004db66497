package specgate.rules["parameter-description_test"]

import data.specgate.rules["parameter-description"] as rule

param(name, loc, node, source) := {"name": name, "in": loc, "node": object.union({"name": name, "in": loc}, node), "source": source}

test_described if {
	count(rule.violations) == 0 with input as {"parameters": [param("limit", "query", {"description": "Page size."}, ["p", 0])]}
}

test_missing_or_blank_description if {
	vs := {v | some v in rule.violations} with input as {"parameters": [
		param("limit", "query", {}, ["paths", "/pets", "get", "parameters", 0]),
		param("id", "path", {"description": "  "}, ["components", "parameters", "id"]),
		param("X-Trace", "header", {"description": "Trace id."}, ["p", 2]),
	]}
	vs == {
		{"path": ["paths", "/pets", "get", "parameters", 0], "message": `query parameter "limit" has no description`},
		{"path": ["components", "parameters", "id"], "message": `path parameter "id" has no description`},
	}
}
