package specgate.rules["asyncapi-message-id-unique_test"]

import data.specgate.rules["asyncapi-message-id-unique"] as rule

msg(name, node) := {"name": name, "source": ["components", "messages", name], "node": node}

test_duplicates if {
	msgs := [
		msg("a", {"messageId": "user"}),
		msg("b", {"messageId": "user"}),
		msg("c", {"messageId": "user", "traits": [{"messageId": "other"}]}),
		msg("d", {"messageId": "order"}),
		msg("", {"messageId": "order"}),
	]
	vs := rule.violations with input as {"document": {}, "messages": msgs}
	vs == {
		{"path": ["components", "messages", "b", "messageId"], "message": `messageId "user" is already used by message "a"; messageIds must be unique`},
		{"path": ["components", "messages", "", "messageId"], "message": `messageId "order" is already used by message "d"; messageIds must be unique`},
	}
}
