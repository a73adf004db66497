package specgate.rules["operation-id-url-safe_test"]

import data.specgate.rules["operation-id-url-safe"] as rule

op(id) := {"path": "/pets", "method": "get", "operationId": id, "webhook": "", "callback": "", "source": ["paths", "/pets", "get"]}

doc(ops) := {"operations": ops, "webhooks": [], "callbacks": []}

test_safe_ids_pass if {
	count(rule.violations) == 0 with input as doc([op("listPets"), op("pets.list_v2~1"), op("")])
}

test_unsafe_characters_are_listed if {
	vs := rule.violations with input as doc([op("list pets <all>")])
	vs == {{"path": ["paths", "/pets", "get", "operationId"], "message": `operationId "list pets <all>" of GET /pets contains characters that are not URL-safe: " " "<" ">"`}}
}

test_non_ascii if {
	count(rule.violations) == 1 with input as doc([op("listeTiere\u00e4")])
}
