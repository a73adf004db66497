package specgate.rules["asyncapi-headers-schema-type-object_test"]

import data.specgate.rules["asyncapi-headers-schema-type-object"] as rule

msg(name, node) := {"name": name, "source": ["components", "messages", name], "node": node}

test_asyncapi2 if {
	doc := {"components": {
		"schemas": {"h": {"type": "string"}},
		"messageTraits": {"common": {"headers": {"properties": {"x": {}}}}},
	}}
	msgs := [
		msg("a", {"headers": {"type": "object"}}),
		msg("b", {"headers": {"$ref": "#/components/schemas/h"}}),
		msg("c", {"headers": {"type": ["object", "null"]}}),
		msg("d", {"headers": {"allOf": [{"type": "object"}]}}),
		msg("e", {"headers": {"$ref": "other.yaml#/h"}}),
		msg("f", {}),
	]
	vs := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "messages": msgs, "asyncOperations": []}
	vs == {
		{"path": ["components", "messages", "b", "headers", "type"], "message": `the headers of message "b" have type "string"; headers must be a schema of type object`},
		{"path": ["components", "messages", "c", "headers", "type"], "message": `the headers of message "c" have type ["object","null"]; headers must be a schema of type object`},
		{"path": ["components", "messageTraits", "common", "headers"], "message": `the headers schema of message trait "common" has no type; declare type: object`},
	}
}

test_asyncapi3_multi_format if {
	msgs := [
		msg("a", {"headers": {"schemaFormat": "application/vnd.aai.asyncapi+json;version=3.0.0", "schema": {"type": "array"}}}),
		msg("b", {"headers": {"schemaFormat": "application/vnd.apache.avro;version=1.9.0", "schema": {"type": "record"}}}),
	]
	vs := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": {}, "messages": msgs, "asyncOperations": []}
	vs == {{"path": ["components", "messages", "a", "headers", "schema", "type"], "message": `the headers of message "a" have type "array"; headers must be a schema of type object`}}
}
