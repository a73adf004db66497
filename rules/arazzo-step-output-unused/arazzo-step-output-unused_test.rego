package specgate.rules["arazzo-step-output-unused_test"]

import data.specgate.rules["arazzo-step-output-unused"] as rule

use(wf, id, name) := {"kind": "steps", "workflow": wf, "step": "", "id": id, "field": "outputs", "name": name}

test_read_and_unread if {
	doc := {"workflows": [
		{"workflowId": "w", "steps": [{"stepId": "s", "outputs": {"a": "$statusCode", "b": "$statusCode", "c": "$statusCode", "d": "$statusCode"}}]},
		{"workflowId": "v", "steps": [{"stepId": "s", "outputs": {"a": "$statusCode"}}]},
	]}
	steps := [
		{"workflow": "w", "id": "s", "source": ["workflows", 0, "steps", 0]},
		{"workflow": "v", "id": "s", "source": ["workflows", 1, "steps", 0]},
	]
	uses := [use("w", "s", "a"), use("w", "s", "b.id"), use("", "s", "c"), use("other", "s", "d")]
	vs := rule.violations with input as {"document": doc, "arazzo": {"steps": steps, "uses": uses}}
	vs == {
		{"path": ["workflows", 0, "steps", 0, "outputs", "d"], "message": `output "d" of step "s" is never read: nothing in workflow "w" uses $steps.s.outputs.d`},
		{"path": ["workflows", 1, "steps", 0, "outputs", "a"], "message": `output "a" of step "s" is never read: nothing in workflow "v" uses $steps.s.outputs.a`},
	}
}
