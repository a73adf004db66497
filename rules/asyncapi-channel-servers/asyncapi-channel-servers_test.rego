package specgate.rules["asyncapi-channel-servers_test"]

import data.specgate.rules["asyncapi-channel-servers"] as rule

chan(id, node) := {"id": id, "source": ["channels", id], "node": node}

test_asyncapi2_names if {
	chans := [chan("a", {"servers": ["prod", "staging"]}), chan("b", {})]
	doc := {"servers": {"prod": {}}}
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "channels": chans}
	vs1 == {{
		"path": ["channels", "a", "servers", 1],
		"message": `channel "a" lists server "staging", which is not defined under servers`,
	}}
}

test_asyncapi3_refs if {
	servers := [
		{"$ref": "#/servers/prod"},
		{"$ref": "#/servers/staging"},
		{"$ref": "#/components/servers/prod"},
		{"host": "x", "protocol": "kafka"},
		{"$ref": "#/servers/a~1b"},
	]
	doc := {"servers": {"prod": {}, "a/b": {}}}
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": doc, "channels": [chan("a", {"servers": servers})]}
	vs2 == {
		{"path": ["channels", "a", "servers", 1], "message": `channel "a" lists server "#/servers/staging", which is not one of the root servers; point to #/servers/<name>`},
		{"path": ["channels", "a", "servers", 2], "message": `channel "a" lists server "#/components/servers/prod", which is not one of the root servers; point to #/servers/<name>`},
		{"path": ["channels", "a", "servers", 3], "message": `channel "a" lists a server written inline; list a $ref to one of the root servers instead`},
	}
}
