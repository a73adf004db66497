package specgate.rules["arazzo-step-success-criteria_test"]

import data.specgate.rules["arazzo-step-success-criteria"] as rule

step(j, id, kind) := {"workflow": "w", "id": id, "kind": kind, "source": ["workflows", 0, "steps", j]}

test_steps_without_criteria if {
	doc := {"workflows": [{"workflowId": "w", "steps": [
		{"stepId": "a", "operationId": "x"},
		{"stepId": "b", "operationId": "x", "successCriteria": [{"condition": "$statusCode == 200"}]},
		{"stepId": "c", "operationId": "x", "successCriteria": []},
		{"stepId": "d", "workflowId": "other"},
		{"stepId": "e", "channelPath": "{$sourceDescriptions.s.url}#/channels/c", "action": "receive"},
	]}]}
	steps := [step(0, "a", "operation"), step(1, "b", "operation"), step(2, "c", "operation"), step(3, "d", "workflow"), step(4, "e", "asyncapi")]
	vs := rule.violations with input as {"document": doc, "arazzo": {"steps": steps}}
	{v.path | some v in vs} == {["workflows", 0, "steps", 0], ["workflows", 0, "steps", 2], ["workflows", 0, "steps", 4]}
	some v in vs
	v.path == ["workflows", 0, "steps", 0]
	v.message == `step "a" of workflow "w" has no successCriteria: what counts as success is left to the tool that runs it (specgate passes any status below 400)`
}
