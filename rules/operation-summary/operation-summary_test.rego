package specgate.rules["operation-summary_test"]

import data.specgate.rules["operation-summary"] as rule

op(path, method, summary) := {"path": path, "method": method, "summary": summary, "webhook": "", "callback": "", "source": ["paths", path, method]}

run(ops, hooks) := vs if vs := {v | some v in rule.violations} with input as {"operations": ops, "webhooks": hooks, "callbacks": []}

test_summarized if {
	count(run([op("/pets", "get", "List pets")], [])) == 0
}

test_missing_or_blank_summary if {
	run([op("/pets", "get", ""), op("/pets", "post", "  "), op("/pets/{id}", "get", "Show a pet")], []) == {
		{"path": ["paths", "/pets", "get"], "message": "GET /pets has no summary"},
		{"path": ["paths", "/pets", "post"], "message": "POST /pets has no summary"},
	}
}

test_webhooks_are_checked if {
	hook := object.union(op("newPet", "post", ""), {"webhook": "newPet", "source": ["webhooks", "newPet", "post"]})
	run([], [hook]) == {{"path": ["webhooks", "newPet", "post"], "message": "POST webhook newPet has no summary"}}
}
