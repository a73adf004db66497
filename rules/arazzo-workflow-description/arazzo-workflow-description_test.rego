package specgate.rules["arazzo-workflow-description_test"]

import data.specgate.rules["arazzo-workflow-description"] as rule

test_described_or_not if {
	doc := {"workflows": [
		{"workflowId": "a", "summary": "Adopt a pet."},
		{"workflowId": "b", "description": "Buy a pet."},
		{"workflowId": "c", "summary": "  ", "description": ""},
		{"steps": []},
	]}
	vs := rule.violations with input as {"document": doc}
	vs == {
		{"path": ["workflows", 2, "workflowId"], "message": `workflow "c" has no summary and no description; say what it achieves`},
		{"path": ["workflows", 3], "message": `workflow "#3" has no summary and no description; say what it achieves`},
	}
}
