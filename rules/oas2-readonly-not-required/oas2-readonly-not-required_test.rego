package specgate.rules["oas2-readonly-not-required_test"]

import data.specgate.rules["oas2-readonly-not-required"] as rule

# doc(schemas, definitions) is the input lint builds (specgate.test_input)
# for a Swagger 2.0 document with the schemas named and the definitions.
doc(schemas, definitions) := specgate.test_input({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": object.union(definitions, {s.name: s.node | some s in schemas})})

named(name, node) := {"name": name, "node": node, "source": ["definitions", name]}

test_required_writable_properties_pass if {
	count(rule.violations) == 0 with input as doc([named("Pet", {"required": ["name"], "properties": {"id": {"readOnly": true}, "name": {}}})], {})
}

test_required_read_only_property if {
	vs := rule.violations with input as doc([named("Pet", {"required": ["name", "id"], "properties": {"id": {"readOnly": true}, "name": {}}})], {})
	vs == {{"path": ["definitions", "Pet", "required", 1], "message": `schema "Pet" requires property "id", which is readOnly; Swagger 2.0 read-only properties should not be required, or requests that omit them fail validation`}}
}

test_read_only_through_a_ref if {
	defs := {"Id": {"type": "string", "readOnly": true}}
	vs := rule.violations with input as doc([named("Pet", {"required": ["id"], "properties": {"id": {"$ref": "#/definitions/Id"}}})], defs)
	count(vs) == 1
}
