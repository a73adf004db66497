package specgate.rules["no-illogical-composition_test"]

import data.specgate.rules["no-illogical-composition"] as rule

schema(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

# run lints, as lint does (specgate.test_input), a document with the
# schemas named and those that doc (an OpenAPI fragment) writes.
run(schemas, doc) := vs if {
	named := object.union(object.get(doc, ["components", "schemas"], {}), {s.name: s.node | some s in schemas})
	i := specgate.test_input({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": named}})
	vs := rule.violations with input as i
}

test_empty_members if {
	vs := run([schema("A", {"anyOf": [{}, {"type": "string"}]}), schema("B", {"allOf": [{"type": "object"}, {}]})], {})
	vs == {
		{"path": ["components", "schemas", "A", "anyOf", 0], "message": "anyOf member 0 of schema \"A\" is an empty schema, which matches every value, so the anyOf accepts anything"},
		{"path": ["components", "schemas", "B", "allOf", 1], "message": "allOf member 1 of schema \"B\" is an empty schema, which adds nothing"},
	}
}

test_repeated_members if {
	vs := run([schema("A", {"oneOf": [{"$ref": "#/components/schemas/X"}, {"type": "object"}, {"$ref": "#/components/schemas/X"}]})], {"components": {"schemas": {"X": {"type": "object", "required": ["x"]}}}})
	vs == {{"path": ["components", "schemas", "A", "oneOf", 2], "message": "oneOf member 2 of schema \"A\" repeats member 0, so every value it matches matches twice and the oneOf rejects it"}}
}

test_overlapping_one_of if {
	vs := run([
		schema("Types", {"oneOf": [{"type": "string"}, {"type": "string", "description": "legacy"}]}),
		schema("Numbers", {"oneOf": [{"type": "integer"}, {"type": "number"}]}),
		schema("Values", {"oneOf": [{"enum": ["a", "b"]}, {"$ref": "#/components/schemas/AB"}]}),
		schema("Typed", {"oneOf": [{"enum": ["a", 1]}, {"type": "number"}]}),
	], {"components": {"schemas": {"AB": {"type": "string", "enum": ["b", "c"]}}}})
	vs == {
		{"path": ["components", "schemas", "Types", "oneOf"], "message": "oneOf members 0 and 1 of schema \"Types\" both accept every string, so such a value matches two members and the oneOf rejects it"},
		{"path": ["components", "schemas", "Numbers", "oneOf"], "message": "oneOf members 0 and 1 of schema \"Numbers\" both accept every integer, so such a value matches two members and the oneOf rejects it"},
		{"path": ["components", "schemas", "Values", "oneOf"], "message": "oneOf members 0 and 1 of schema \"Values\" both accept the value \"b\", so such a value matches two members and the oneOf rejects it"},
		{"path": ["components", "schemas", "Typed", "oneOf"], "message": "oneOf members 0 and 1 of schema \"Typed\" both accept the value 1, so such a value matches two members and the oneOf rejects it"},
	}
}

test_exclusive_or_uncertain_members_pass if {
	count(run([
		schema("A", {"oneOf": [{"type": "string"}, {"type": "integer"}]}),
		schema("B", {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "string", "minLength": 4}]}),
		schema("C", {"oneOf": [{"enum": ["a"]}, {"enum": ["b"]}]}),
		schema("D", {"oneOf": [{"type": "object", "required": ["a"]}, {"type": "object", "required": ["b"]}]}),
		schema("E", {"anyOf": [{"type": "string"}, {"type": "string", "format": "uuid"}]}),
		schema("F", {"oneOf": [{"type": "string", "nullable": true}, {"type": "integer"}]}),
	], {})) == 0
}

test_nullable_members_overlap_on_null if {
	vs := run([schema("N", {"oneOf": [{"type": "string", "nullable": true}, {"type": "integer", "nullable": true}]})], {})
	vs == {{"path": ["components", "schemas", "N", "oneOf"], "message": "oneOf members 0 and 1 of schema \"N\" both accept null, so such a value matches two members and the oneOf rejects it"}}
}

test_inline_member_beside_discriminator if {
	vs := run([
		schema("P", {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"type": "object", "required": ["kind"]}], "discriminator": {"propertyName": "kind"}}),
		schema("Q", {"anyOf": [{"type": "object"}], "discriminator": {"propertyName": "kind", "mapping": {"dog": "#/components/schemas/Q/anyOf/0"}}}),
	], {})
	vs == {{"path": ["components", "schemas", "P", "oneOf", 1], "message": "oneOf member 1 of schema \"P\" is inline, so the discriminator cannot select it"}}
}
