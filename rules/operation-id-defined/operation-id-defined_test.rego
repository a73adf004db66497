package specgate.rules["operation-id-defined_test"]

import data.specgate.rules["operation-id-defined"] as rule

op(method, id) := {"path": "/pets", "method": method, "operationId": id, "webhook": "", "callback": "", "source": ["paths", "/pets", method]}

test_missing_and_blank_ids if {
	vs := rule.violations with input as {"operations": [op("get", ""), op("post", "  "), op("put", "replacePets")], "webhooks": [], "callbacks": []}
	vs == {
		{"path": ["paths", "/pets", "get"], "message": "GET /pets has no operationId; generated clients, links and tools name operations by it"},
		{"path": ["paths", "/pets", "post"], "message": "POST /pets has no operationId; generated clients, links and tools name operations by it"},
	}
}

test_callbacks_are_checked if {
	cb := object.union(op("post", ""), {"path": "{$request.body#/url}", "callback": "onEvent", "source": ["paths", "/subscribe", "post", "callbacks", "onEvent", "{$request.body#/url}", "post"]})
	vs := rule.violations with input as {"operations": [], "webhooks": [], "callbacks": [cb]}
	{v.message | some v in vs} == {"POST {$request.body#/url} (callback onEvent) has no operationId; generated clients, links and tools name operations by it"}
}
