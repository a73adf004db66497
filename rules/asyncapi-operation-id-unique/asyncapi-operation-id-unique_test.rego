package specgate.rules["asyncapi-operation-id-unique_test"]

import data.specgate.rules["asyncapi-operation-id-unique"] as rule

op(ch, action, id) := {"id": id, "action": action, "channel": ch, "source": ["channels", ch, action], "node": {}}

test_later_duplicates_name_the_first if {
	ops := [op("a", "publish", "x"), op("b", "subscribe", "x"), op("c", "publish", "x"), op("d", "publish", ""), op("e", "publish", "")]
	vs1 := rule.violations with input as {"asyncOperations": ops}
	vs1 == {
		{"path": ["channels", "b", "subscribe", "operationId"], "message": `operationId "x" is already used by the publish operation of channel "a"; operationIds must be unique`},
		{"path": ["channels", "c", "publish", "operationId"], "message": `operationId "x" is already used by the publish operation of channel "a"; operationIds must be unique`},
	}
}

test_unique if {
	count(rule.violations) == 0 with input as {"asyncOperations": [op("a", "publish", "x"), op("a", "subscribe", "y")]}
}
