package specgate.rules["asyncapi-operation-reply_test"]

import data.specgate.rules["asyncapi-operation-reply"] as rule

op(id, reply) := {"id": id, "action": "send", "source": ["operations", id], "node": {"channel": {"$ref": "#/channels/requests"}, "reply": reply}}

doc := {
	"channels": {
		"requests": {"address": "prices.requests"},
		"replies": {"address": null, "messages": {"price": {}}},
		"fixed": {"address": "prices.replies", "messages": {"price": {}}},
	},
	"components": {
		"channels": {"replies": {"messages": {"price": {}}}},
		"replies": {"shared": {"channel": {"$ref": "#/components/channels/replies"}, "messages": [{"$ref": "#/components/messages/price"}]}},
	},
}

test_good_reply if {
	ops := [op("good", {"address": {"location": "$message.header#/replyTo"}, "channel": {"$ref": "#/channels/replies"}, "messages": [{"$ref": "#/channels/replies/messages/price"}]})]
	count(rule.violations) == 0 with input as {"document": doc, "asyncOperations": ops}
}

test_bad_replies if {
	ops := [
		op("component", {"channel": {"$ref": "#/components/channels/replies"}}),
		op("inline", {"channel": {"address": "x"}}),
		op("messages", {"channel": {"$ref": "#/channels/replies"}, "messages": [{"$ref": "#/components/messages/price"}]}),
		op("address", {"address": {"location": "$message.header#/replyTo"}, "channel": {"$ref": "#/channels/fixed"}}),
		op("shared", {"$ref": "#/components/replies/shared"}),
	]
	vs1 := rule.violations with input as {"document": doc, "asyncOperations": ops}
	vs1 == {
		{"path": ["operations", "component", "reply", "channel"], "message": `the reply of operation "component" points to "#/components/channels/replies", which is not one of the root channels`},
		{"path": ["operations", "inline", "reply", "channel"], "message": `the reply of operation "inline" writes its channel inline; point to a channel with a $ref`},
		{"path": ["operations", "messages", "reply", "messages", 0], "message": `the reply of operation "messages" lists "#/components/messages/price", which is not a message of its channel "replies"; point to #/channels/replies/messages/<name>`},
		{"path": ["operations", "address", "reply", "address"], "message": `the reply of operation "address" has an address, so its channel "fixed" must not have one, but it has "prices.replies"`},
	}
}
