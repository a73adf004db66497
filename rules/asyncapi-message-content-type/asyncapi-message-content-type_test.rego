package specgate.rules["asyncapi-message-content-type_test"]

import data.specgate.rules["asyncapi-message-content-type"] as rule

msg(name, payload, node) := {"name": name, "payload": payload, "source": ["components", "messages", name], "node": node}

msgs := [
	msg("a", {"type": "string"}, {}),
	msg("b", {"type": "string"}, {"contentType": "application/json"}),
	msg("c", {"type": "string"}, {"traits": [{"contentType": "application/avro"}]}),
	msg("d", null, {}),
	msg("e", {"type": "string"}, {"traits": [{"$ref": "other.yaml#/t"}]}),
]

test_without_default if {
	vs := rule.violations with input as {"document": {}, "messages": msgs}
	vs == {{"path": ["components", "messages", "a"], "message": `message "a" has a payload but no contentType, and the document sets no defaultContentType`}}
}

test_with_default if {
	count(rule.violations) == 0 with input as {"document": {"defaultContentType": "application/json"}, "messages": msgs}
}
