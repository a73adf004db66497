package specgate.rules["asyncapi-operation-channel_test"]

import data.specgate.rules["asyncapi-operation-channel"] as rule

op(id, node) := {"id": id, "action": "send", "source": ["operations", id], "node": node}

test_channel_references if {
	ops := [
		op("good", {"channel": {"$ref": "#/channels/user~1signup"}}),
		op("component", {"channel": {"$ref": "#/components/channels/signup"}}),
		op("missing", {"channel": {"$ref": "#/channels/nope"}}),
		op("inline", {"channel": {"address": "x"}}),
		op("none", {}),
	]
	doc := {"channels": {"user/signup": {}}, "components": {"channels": {"signup": {}}}}
	vs1 := rule.violations with input as {"document": doc, "asyncOperations": ops}
	vs1 == {
		{"path": ["operations", "component", "channel"], "message": `operation "component" points to "#/components/channels/signup", which is not one of the root channels`},
		{"path": ["operations", "missing", "channel"], "message": `operation "missing" points to "#/channels/nope", which is not one of the root channels`},
		{"path": ["operations", "inline", "channel"], "message": `operation "inline" writes its channel inline; point to one of the root channels with $ref: '#/channels/<id>'`},
		{"path": ["operations", "none"], "message": `operation "none" has no channel`},
	}
}
