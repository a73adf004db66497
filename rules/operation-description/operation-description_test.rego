package specgate.rules["operation-description_test"]

import data.specgate.rules["operation-description"] as rule

op(path, method, summary, description) := {"path": path, "method": method, "summary": summary, "description": description, "webhook": "", "callback": "", "source": ["paths", path, method]}

run(ops, callbacks) := vs if vs := {v | some v in rule.violations} with input as {"operations": ops, "webhooks": [], "callbacks": callbacks}

test_described if {
	count(run([op("/pets", "get", "", "Lists the pets for adoption.")], [])) == 0
}

test_summary_does_not_replace_the_description if {
	run([op("/pets", "get", "List pets", ""), op("/pets", "post", "", "\t")], []) == {
		{"path": ["paths", "/pets", "get"], "message": "GET /pets has no description"},
		{"path": ["paths", "/pets", "post"], "message": "POST /pets has no description"},
	}
}

test_callbacks_are_checked if {
	cb := object.union(op("{$request.body#/url}", "post", "", ""), {"callback": "onPet", "source": ["paths", "/subscribe", "post", "callbacks", "onPet", "{$request.body#/url}", "post"]})
	run([], [cb]) == {{"path": ["paths", "/subscribe", "post", "callbacks", "onPet", "{$request.body#/url}", "post"], "message": "POST {$request.body#/url} (callback onPet) has no description"}}
}
