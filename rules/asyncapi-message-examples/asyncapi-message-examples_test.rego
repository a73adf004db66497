package specgate.rules["asyncapi-message-examples_test"]

import data.specgate.rules["asyncapi-message-examples"] as rule

msg(name, payload, node) := {"name": name, "payload": payload, "source": ["components", "messages", name], "node": node}

doc := {"components": {"schemas": {"lumens": {"type": "integer", "minimum": 0}}}}

payload := {"type": "object", "properties": {"lumens": {"$ref": "#/components/schemas/lumens"}}}

test_asyncapi2 if {
	msgs := [
		msg("measured", payload, {"headers": {"type": "object", "properties": {"id": {"type": "string"}}}, "examples": [
			{"payload": {"lumens": 3}, "headers": {"id": "a"}},
			{"payload": {"lumens": -3}},
			{"headers": {"id": 5}},
			{"name": "empty"},
		]}),
		msg("avro", {"type": "record"}, {"schemaFormat": "application/vnd.apache.avro;version=1.9.0", "examples": [{"payload": {"x": 1}}]}),
		msg("traits", {"type": "string"}, {"traits": [{}], "headers": {"type": "object", "required": ["x"]}, "examples": [{"headers": {}}]}),
	]
	vs := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "messages": msgs}
	vs == {
		{"path": ["components", "messages", "measured", "examples", 1, "payload"], "message": `the payload of example 1 of message "measured" does not match the payload schema: lumens: Must be greater than or equal to 0`},
		{"path": ["components", "messages", "measured", "examples", 2, "headers"], "message": `the headers of example 2 of message "measured" do not match the headers schema: id: Invalid type. Expected: string, given: integer`},
		{"path": ["components", "messages", "measured", "examples", 3], "message": `example 3 of message "measured" has neither a payload nor headers`},
	}
}

test_asyncapi3_multi_format if {
	msgs := [
		msg("json", {"type": "string"}, {"payload": {"schemaFormat": "application/schema+json;version=draft-07", "schema": {"type": "string"}}, "examples": [{"payload": 1}]}),
		msg("openapi", {"type": "string"}, {"payload": {"schemaFormat": "application/vnd.oai.openapi;version=3.0.0", "schema": {"type": "string"}}, "examples": [{"payload": 1}]}),
		msg("string", {"type": "string", "enum": ["on", "off"]}, {"examples": [{"payload": "on"}, {"payload": "dim"}]}),
	]
	vs := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": {}, "messages": msgs}
	vs == {
		{"path": ["components", "messages", "json", "examples", 0, "payload"], "message": `the payload of example 0 of message "json" does not match the payload schema: Invalid type. Expected: string, given: integer`},
		{"path": ["components", "messages", "string", "examples", 1, "payload"], "message": `the payload of example 1 of message "string" does not match the payload schema: the value must be one of the following: "on", "off"`},
	}
}
