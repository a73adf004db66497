package specgate.rules["asyncapi-operation-id_test"]

import data.specgate.rules["asyncapi-operation-id"] as rule

op(ch, action, node) := {"id": object.get(node, "operationId", ""), "action": action, "channel": ch, "source": ["channels", ch, action], "node": node}

test_missing_and_from_traits if {
	ops := [
		op("a", "publish", {}),
		op("a", "subscribe", {"operationId": "onA"}),
		op("b", "publish", {"traits": [{"operationId": "fromTrait"}]}),
		op("c", "publish", {"operationId": ""}),
	]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": {}, "asyncOperations": ops}
	vs1 == {
		{"path": ["channels", "a", "publish"], "message": `the publish operation of channel "a" has no operationId`},
		{"path": ["channels", "c", "publish"], "message": `the publish operation of channel "c" has no operationId`},
	}
}
