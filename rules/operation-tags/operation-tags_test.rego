package specgate.rules["operation-tags_test"]

import data.specgate.rules["operation-tags"] as rule

op(path, method, tags) := {"path": path, "method": method, "tags": tags, "webhook": "", "callback": "", "source": ["paths", path, method]}

run(ops, hooks, callbacks) := vs if vs := {v | some v in rule.violations} with input as {"operations": ops, "webhooks": hooks, "callbacks": callbacks}

test_tagged if {
	count(run([op("/pets", "get", ["pets"])], [], [])) == 0
}

test_missing_or_blank_tags if {
	run([op("/pets", "get", []), op("/pets", "post", [""])], [], []) == {
		{"path": ["paths", "/pets", "get"], "message": "GET /pets has no tags; tags group operations in documentation and clients"},
		{"path": ["paths", "/pets", "post"], "message": "POST /pets has no tags; tags group operations in documentation and clients"},
	}
}

test_webhooks_are_checked_and_callbacks_are_not if {
	hook := object.union(op("newPet", "post", []), {"webhook": "newPet", "source": ["webhooks", "newPet", "post"]})
	cb := object.union(op("{$request.body#/url}", "post", []), {"callback": "onPet", "source": ["c"]})
	run([], [hook], [cb]) == {{"path": ["webhooks", "newPet", "post"], "message": "POST webhook newPet has no tags; tags group operations in documentation and clients"}}
}
