package specgate.rules["composition-single-schema_test"]

import data.specgate.rules["composition-single-schema"] as rule

schema(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

# run lints, as lint does (specgate.test_input), a document with the
# schemas named and those that doc (an OpenAPI fragment) writes.
run(schemas, doc) := vs if {
	named := object.union(object.get(doc, ["components", "schemas"], {}), {s.name: s.node | some s in schemas})
	i := specgate.test_input({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": named}})
	vs := rule.violations with input as i
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
