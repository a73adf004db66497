package specgate.rules["asyncapi-operation-secured_test"]

import data.specgate.rules["asyncapi-operation-secured"] as rule

doc := {
	"servers": {
		"secure": {"security": [{"certs": []}]},
		"open": {"security": []},
		"ref": {"$ref": "#/components/servers/secured"},
	},
	"components": {"servers": {"secured": {"security": [{"certs": []}]}}},
}

op2(ch, action, node) := {"id": "", "action": action, "channel": ch, "source": ["channels", ch, action], "node": node}

test_asyncapi2 if {
	chans := [
		{"id": "a", "node": {"servers": ["secure", "ref"]}},
		{"id": "b", "node": {}},
		{"id": "c", "node": {"servers": ["open"]}},
	]
	ops := [
		op2("a", "publish", {}),
		op2("b", "publish", {}),
		op2("b", "subscribe", {"security": [{"certs": []}]}),
		op2("c", "publish", {"traits": [{"security": [{"certs": []}]}]}),
		op2("c", "subscribe", {"traits": [{"$ref": "other.yaml#/trait"}]}),
		op2("c", "subscribe", {}),
	]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "channels": chans, "asyncOperations": ops}
	vs1 == {
		{"path": ["channels", "b", "publish"], "message": `the publish operation of channel "b" requires no security, and neither do its servers "open"`},
		{"path": ["channels", "c", "subscribe"], "message": `the subscribe operation of channel "c" requires no security, and neither do its servers "open"`},
	}
}

test_asyncapi3 if {
	chans := [
		{"id": "a", "node": {"servers": [{"$ref": "#/servers/secure"}]}},
		{"id": "b", "node": {"servers": [{"$ref": "#/servers/open"}, {"$ref": "#/servers/secure"}]}},
	]
	ops := [
		{"id": "sendA", "action": "send", "channel": "a", "source": ["operations", "sendA"], "node": {}},
		{"id": "sendB", "action": "send", "channel": "b", "source": ["operations", "sendB"], "node": {}},
	]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": doc, "channels": chans, "asyncOperations": ops}
	vs2 == {{
		"path": ["operations", "sendB"],
		"message": `operation "sendB" requires no security, and neither do its servers "open"`,
	}}
}

test_no_servers if {
	ops := [{"id": "send", "action": "send", "channel": "a", "source": ["operations", "send"], "node": {}}]
	vs3 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": {}, "channels": [{"id": "a", "node": {}}], "asyncOperations": ops}
	vs3 == {{
		"path": ["operations", "send"],
		"message": `operation "send" requires no security and the document defines no servers that do`,
	}}
}
