package specgate.rules["required-properties-defined_test"]

import data.specgate.rules["required-properties-defined"] as rule

# doc(nodes, _) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these; the references among them are
# the builder's.
doc(nodes, _) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": nodes}})

test_defined_properties_pass if {
	count(rule.violations) == 0 with input as doc({
		"A": {"required": ["a"], "properties": {"a": {}}},
		"B": {"required": ["a", "b"], "allOf": [{"$ref": "#/components/schemas/A"}, {"properties": {"b": {}}}]},
		"C": {"required": ["x"], "additionalProperties": {"type": "string"}},
	}, [])
}

test_undefined_name_is_reported_on_its_entry if {
	vs := rule.violations with input as doc({"User": {"required": ["id", "emial"], "properties": {"id": {}, "email": {}}}}, [])
	vs == {{"path": ["components", "schemas", "User", "required", 1], "message": `schema "User" requires property "emial" but does not define it`}}
}

test_inline_member_sees_its_parent if {
	count(rule.violations) == 0 with input as doc({"P": {"allOf": [{"properties": {"id": {}}}, {"required": ["id"]}]}}, [])
}

test_referenced_member_sees_its_composer if {
	count(rule.violations) == 0 with input as doc(
		{"Extra": {"required": ["id"]}, "Full": {"allOf": [{"properties": {"id": {}}}, {"$ref": "#/components/schemas/Extra"}]}},
		[{"file": "", "targetFile": "", "path": ["components", "schemas", "Full", "allOf", 1], "target": ["components", "schemas", "Extra"]}],
	)
}

test_unreadable_composition_is_left_alone if {
	count(rule.violations) == 0 with input as doc({"A": {"required": ["x"], "allOf": [{"$ref": "other.yaml#/Base"}]}}, [])
}

test_no_properties_at_all if {
	vs := rule.violations with input as doc({"A": {"type": "object", "required": ["x"]}}, [])
	vs == {{"path": ["components", "schemas", "A", "required", 0], "message": `schema "A" requires property "x" but does not define it`}}
}
