package specgate.rules["composition-single-schema_test"]

import data.specgate.lib.correctness
import data.specgate.rules["composition-single-schema"] as rule

schema(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

run(schemas, doc) := vs if {
	vs := rule.violations with input as {"schemasWith": correctness.index(schemas), "document": doc, "format": "openapi", "version": "3.0.3"}
}

test_wrapper_alone if {
	vs := run([schema("Owner", {"allOf": [{"$ref": "#/components/schemas/Person"}]})], {"components": {"schemas": {"Person": {"type": "object"}}}})
	vs == {{"path": ["components", "schemas", "Owner", "allOf"], "message": "allOf of schema \"Owner\" holds one schema and nothing else; use its $ref \"#/components/schemas/Person\" directly"}}
}

test_inline_member_beside_other_keywords if {
	vs := run([
		schema("A", {"description": "d", "oneOf": [{"type": "string"}]}),
		schema("B", {"type": "object", "anyOf": [{"type": "object", "required": ["x"]}]}),
		schema("C", {"nullable": true, "oneOf": [{"$ref": "#/components/schemas/X"}]}),
	], {})
	vs == {{"path": ["components", "schemas", "A", "oneOf"], "message": "oneOf of schema \"A\" holds one inline schema; move its keywords into the schema"}}
}

test_meaningful_wrappers if {
	count(run([
		schema("Cat", {"allOf": [{"$ref": "#/components/schemas/Pet"}]}),
		schema("Dog", {"allOf": [{"$ref": "#/components/schemas/Pet"}], "description": "A dog"}),
		schema("Any", {"oneOf": [{"type": "string"}], "discriminator": {"propertyName": "kind"}}),
		schema("Two", {"anyOf": [{"type": "string"}, {"type": "integer"}]}),
	], {"components": {"schemas": {"Pet": {"type": "object", "discriminator": {"propertyName": "kind"}}}}})) == 0
}

test_empty_list if {
	vs := run([schema("E", {"type": "object", "allOf": []})], {})
	vs == {{"path": ["components", "schemas", "E", "allOf"], "message": "allOf of schema \"E\" lists no schema; an empty allOf is not a valid schema"}}
}
