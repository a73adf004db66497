package specgate.rules["arazzo-replacement-unique_test"]

import data.specgate.rules["arazzo-replacement-unique"] as rule

test_repeats if {
	reps := [{"target": "/a", "value": 1}, {"target": "/b", "value": 2}, {"value": 3}, {"value": 4}, {"target": "/a", "value": 5}]
	doc := {"workflows": [{"workflowId": "w", "steps": [{"stepId": "s", "requestBody": {"payload": {}, "replacements": reps}}, {"stepId": "t"}]}]}
	vs := rule.violations with input as {"document": doc}
	vs == {{
		"path": ["workflows", 0, "steps", 0, "requestBody", "replacements", 4, "target"],
		"message": `step "s" sets target "/a" again (first by replacements[0]); only the later value is sent`,
	}}
}
