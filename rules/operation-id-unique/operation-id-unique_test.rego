package specgate.rules["operation-id-unique_test"]

import data.specgate.rules["operation-id-unique"] as rule

op(path, method, id) := {"path": path, "method": method, "operationId": id, "webhook": "", "callback": "", "source": ["paths", path, method]}

ops(paths, webhooks, callbacks) := {"operations": paths, "webhooks": webhooks, "callbacks": callbacks}

test_every_duplicate_after_the_first if {
	vs := rule.violations with input as ops([op("/pets", "get", "listPets"), op("/cats", "get", "listPets"), op("/dogs", "get", "listPets")], [], [])
	vs == {
		{"path": ["paths", "/cats", "get", "operationId"], "message": `operationId "listPets" is already used by GET /pets; operationIds must be unique`},
		{"path": ["paths", "/dogs", "get", "operationId"], "message": `operationId "listPets" is already used by GET /pets; operationIds must be unique`},
	}
}

test_unique_and_missing_ids_pass if {
	count(rule.violations) == 0 with input as ops([op("/pets", "get", "listPets"), op("/pets", "post", "createPet"), op("/a", "get", ""), op("/b", "get", "")], [], [])
}

test_comparison_is_case_sensitive if {
	count(rule.violations) == 0 with input as ops([op("/pets", "get", "listPets"), op("/cats", "get", "ListPets")], [], [])
}

test_webhooks_and_callbacks_share_the_namespace if {
	hook := object.union(op("newPet", "post", "listPets"), {"webhook": "newPet", "source": ["webhooks", "newPet", "post"]})
	cb := object.union(op("{$request.body#/url}", "post", "newPet"), {"callback": "onPet", "source": ["paths", "/subscribe", "post", "callbacks", "onPet", "{$request.body#/url}", "post"]})
	hook2 := object.union(op("petAdded", "post", "newPet"), {"webhook": "petAdded", "source": ["webhooks", "petAdded", "post"]})
	vs := rule.violations with input as ops([op("/pets", "get", "listPets")], [hook, hook2], [cb])
	vs == {
		{"path": ["webhooks", "newPet", "post", "operationId"], "message": `operationId "listPets" is already used by GET /pets; operationIds must be unique`},
		{"path": ["paths", "/subscribe", "post", "callbacks", "onPet", "{$request.body#/url}", "post", "operationId"], "message": `operationId "newPet" is already used by POST webhook petAdded; operationIds must be unique`},
	}
}

test_callback_is_named_with_its_expression if {
	cb := object.union(op("{$request.body#/url}", "post", "x"), {"callback": "onPet", "source": ["c"]})
	vs := rule.violations with input as ops([], [], [cb, op("/x", "get", "x")])
	vs == {{"path": ["paths", "/x", "get", "operationId"], "message": `operationId "x" is already used by POST {$request.body#/url} (callback onPet); operationIds must be unique`}}
}
