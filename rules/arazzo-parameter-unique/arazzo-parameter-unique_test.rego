package specgate.rules["arazzo-parameter-unique_test"]

import data.specgate.rules["arazzo-parameter-unique"] as rule

test_repeats if {
	doc := {
		"workflows": [{
			"workflowId": "w",
			"parameters": [{"name": "page", "in": "query", "value": 1}, {"name": "id", "value": 1}, {"name": "id", "value": 2}],
			"steps": [{"stepId": "s", "parameters": [
				{"name": "page", "in": "query", "value": 1},
				{"name": "X-Trace", "in": "header", "value": "a"},
				{"reference": "$components.parameters.page", "value": 2},
				{"name": "x-trace", "in": "header", "value": "b"},
				{"name": "page", "in": "cookie", "value": 3},
				{"reference": "$components.parameters.missing"},
				{"reference": "$components.parameters.missing"},
			]}],
		}],
		"components": {"parameters": {"page": {"name": "page", "in": "query", "value": 1}}},
	}
	vs := rule.violations with input as {"document": doc}
	vs == {
		{"path": ["workflows", 0, "parameters", 2], "message": `workflow "w" lists the input "id" twice (first as parameters[1]); only the later value is sent`},
		{"path": ["workflows", 0, "steps", 0, "parameters", 2], "message": `step "s" lists the query parameter "page" twice (first as parameters[0]); only the later value is sent`},
		{"path": ["workflows", 0, "steps", 0, "parameters", 3], "message": `step "s" lists the header parameter "x-trace" twice (first as parameters[1]); only the later value is sent`},
	}
}
