package specgate.rules["asyncapi-channel-parameters_test"]

import data.specgate.rules["asyncapi-channel-parameters"] as rule

chan(id, node) := {"id": id, "source": ["channels", id], "node": node}

test_asyncapi2_missing_and_unused if {
	chans := [
		chan("users/{userId}/{action}", {"parameters": {"userId": {}, "id": {}}}),
		chan("users/{userId}", {"parameters": {"userId": {"$ref": "#/components/parameters/userId"}}}),
		chan("plain", {}),
		chan("orders/{orderId}", {}),
	]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": {}, "channels": chans}
	vs1 == {
		{"path": ["channels", "users/{userId}/{action}"], "message": `channel "users/{userId}/{action}" uses {action}, but the channel has no parameter "action"`},
		{"path": ["channels", "users/{userId}/{action}", "parameters", "id"], "message": `parameter "id" of channel "users/{userId}/{action}" is not used: "users/{userId}/{action}" has no {id}`},
		{"path": ["channels", "orders/{orderId}"], "message": `channel "orders/{orderId}" uses {orderId}, but the channel has no parameter "orderId"`},
	}
}

test_asyncapi3_addresses if {
	chans := [
		chan("signup", {"address": "users.{userId}", "parameters": {"userid": {}}}),
		chan("dynamic", {"address": null, "parameters": {"x": {}}}),
		chan("fine", {"address": "users.{userId}", "parameters": {"userId": {}}}),
		chan("none", {"address": "users", "parameters": {"extra": {}}}),
	]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": {}, "channels": chans}
	vs2 == {
		{"path": ["channels", "signup", "address"], "message": `the address "users.{userId}" of channel "signup" uses {userId}, but the channel has no parameter "userId"`},
		{"path": ["channels", "signup", "parameters", "userid"], "message": `parameter "userid" of channel "signup" is not used: "users.{userId}" has no {userid}`},
		{"path": ["channels", "none", "parameters", "extra"], "message": `parameter "extra" of channel "none" is not used: "users" has no {extra}`},
	}
}
