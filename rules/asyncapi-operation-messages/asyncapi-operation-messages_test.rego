package specgate.rules["asyncapi-operation-messages_test"]

import data.specgate.rules["asyncapi-operation-messages"] as rule

op(id, node) := {"id": id, "action": "send", "source": ["operations", id], "node": node}

doc := {
	"channels": {
		"user/signup": {"messages": {"signedUp": {}, "a/b": {}}},
		"other": {"$ref": "#/components/channels/other"},
	},
	"components": {"channels": {"other": {"messages": {"x": {}}}}, "messages": {"signedUp": {}}},
}

test_messages_of_the_channel if {
	ops := [
		op("send", {"channel": {"$ref": "#/channels/user~1signup"}, "messages": [
			{"$ref": "#/channels/user~1signup/messages/signedUp"},
			{"$ref": "#/channels/user~1signup/messages/a~1b"},
			{"$ref": "#/components/messages/signedUp"},
			{"$ref": "#/channels/other/messages/x"},
			{"$ref": "#/channels/user~1signup/messages/gone"},
			{"payload": {}},
		]}),
		op("deref", {"channel": {"$ref": "#/channels/other"}, "messages": [{"$ref": "#/channels/other/messages/x"}]}),
		op("elsewhere", {"channel": {"$ref": "#/components/channels/other"}, "messages": [{"$ref": "#/components/messages/signedUp"}]}),
		op("all", {"channel": {"$ref": "#/channels/other"}}),
	]
	vs1 := rule.violations with input as {"document": doc, "asyncOperations": ops}
	vs1 == {
		{"path": ["operations", "send", "messages", 2], "message": `operation "send" lists "#/components/messages/signedUp", which is not a message of its channel "user/signup"; point to #/channels/user~1signup/messages/<name>`},
		{"path": ["operations", "send", "messages", 3], "message": `operation "send" lists "#/channels/other/messages/x", which is not a message of its channel "user/signup"; point to #/channels/user~1signup/messages/<name>`},
		{"path": ["operations", "send", "messages", 4], "message": `operation "send" lists "#/channels/user~1signup/messages/gone", which is not a message of its channel "user/signup"; point to #/channels/user~1signup/messages/<name>`},
		{"path": ["operations", "send", "messages", 5], "message": `operation "send" lists a message written inline; point to one of the messages of channel "user/signup" with a $ref`},
	}
}
