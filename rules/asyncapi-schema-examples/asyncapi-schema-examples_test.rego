package specgate.rules["asyncapi-schema-examples_test"]

import data.specgate.rules["asyncapi-schema-examples"] as rule

schema(name, source, node) := {"name": name, "source": source, "node": node}

test_defaults_and_examples if {
	schemas := [
		schema("brightness", ["components", "schemas", "brightness"], {"type": "integer", "maximum": 100, "default": 150, "examples": [50, 101]}),
		schema("", ["components", "messages", "m", "payload", "properties", "on"], {"type": "boolean", "default": "yes"}),
		schema("ok", ["components", "schemas", "ok"], {"type": "string", "default": "a", "examples": ["b"]}),
		schema("", ["components", "messages", "avro", "payload"], {"type": "record", "default": 1}),
		schema("ref", ["components", "schemas", "ref"], {"$ref": "#/components/schemas/ok", "default": 5}),
		schema("nullable", ["components", "schemas", "nullable"], {"type": "string", "nullable": true, "default": null, "examples": [null, 3]}),
	]
	msgs := [{"name": "avro", "payloadSource": ["components", "messages", "avro", "payload"], "node": {"schemaFormat": "application/vnd.apache.avro;version=1.9.0"}}]
	doc := {"components": {"schemas": {"ok": {"type": "string"}}}}
	vs := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "schemas": schemas, "messages": msgs}
	vs == {
		{"path": ["components", "schemas", "brightness", "default"], "message": `the default of schema "brightness" does not match it: Must be less than or equal to 100`},
		{"path": ["components", "schemas", "brightness", "examples", 1], "message": `example 1 of schema "brightness" does not match it: Must be less than or equal to 100`},
		{"path": ["components", "messages", "m", "payload", "properties", "on", "default"], "message": `the default of the schema at /components/messages/m/payload/properties/on does not match it: Invalid type. Expected: boolean, given: string`},
		{"path": ["components", "schemas", "ref", "default"], "message": `the default of schema "ref" does not match it: Invalid type. Expected: string, given: integer`},
		{"path": ["components", "schemas", "nullable", "examples", 1], "message": `example 1 of schema "nullable" does not match it: Invalid type. Expected: string, given: integer`},
	}
}
