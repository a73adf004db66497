package specgate.rules["operation-single-tag_test"]

import data.specgate.rules["operation-single-tag"] as rule

op(method, tags) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "tags": tags, "source": ["paths", "/pets", method]}

test_several_tags if {
	vs := rule.violations with input as {"operations": [op("get", ["pets", "store"]), op("post", ["pets"]), op("put", [])], "webhooks": [], "callbacks": []}
	vs == {{"path": ["paths", "/pets", "get", "tags"], "message": "GET /pets has 2 tags (pets, store); give it one"}}
}

test_webhooks_are_checked if {
	hook := object.union(op("post", ["a", "b", "c"]), {"webhook": "newPet", "source": ["webhooks", "newPet", "post"]})
	vs := rule.violations with input as {"operations": [], "webhooks": [hook], "callbacks": []}
	vs == {{"path": ["webhooks", "newPet", "post", "tags"], "message": "POST webhook newPet has 3 tags (a, b, c); give it one"}}
}
