package specgate.rules["arazzo-input-unused_test"]

import data.specgate.rules["arazzo-input-unused"] as rule

workflow(id, names) := {"id": id, "source": ["workflows", 0], "inputs": [{"name": n, "source": ["workflows", 0, "inputs", "properties", n]} | some n in names]}

use(kind, wf, id, field, name) := {"kind": kind, "workflow": wf, "step": "", "id": id, "field": field, "name": name}

test_read_in_every_way if {
	vs := rule.violations with input as {"arazzo": {
		"workflows": [workflow("w", ["a", "b", "c", "d", "e"]), {"id": "open", "inputs": null}],
		"uses": [
			use("inputs", "w", "", "", "a"),
			use("inputs", "w", "", "", "b.id"),
			use("inputs", "", "", "", "c"),
			use("workflows", "other", "w", "inputs", "d"),
			use("inputs", "other", "", "", "e"),
			use("workflows", "other", "w", "outputs", "e"),
			use("inputs", "w", "", "", "ee"),
		],
	}}
	vs == {{
		"path": ["workflows", 0, "inputs", "properties", "e"],
		"message": `input "e" of workflow "w" is never read: nothing in the document uses $inputs.e in the workflow or $workflows.w.inputs.e`,
	}}
}
