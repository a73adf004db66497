package specgate.rules["allof-type-conflict_test"]

import data.specgate.rules["allof-type-conflict"] as rule

# doc(version, nodes) is the input lint builds (specgate.test_input) for
# a document of the OpenAPI version whose named schemas are these.
doc(version, nodes) := specgate.test_input({"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": nodes}})

user := {"type": "object", "properties": {"id": {"type": "integer"}, "n": {"type": "number"}}}

test_compatible_members_pass if {
	count(rule.violations) == 0 with input as doc("3.1.0", {
		"User": user,
		"Admin": {"allOf": [{"$ref": "#/components/schemas/User"}, {"type": "object", "properties": {"id": {"type": "number"}, "n": {"type": "integer"}, "x": {}}}]},
	})
}

test_property_redefined if {
	vs := rule.violations with input as doc("3.1.0", {
		"User": user,
		"Admin": {"allOf": [{"$ref": "#/components/schemas/User"}, {"type": "object", "properties": {"id": {"type": "string"}}}]},
	})
	vs == {{"path": ["components", "schemas", "Admin", "allOf", 1, "properties", "id", "type"], "message": `property "id" is of type string in allOf member 1 of schema "Admin", but of type integer in member 0: it can never be sent`}}
}

test_members_of_different_types if {
	vs := rule.violations with input as doc("3.1.0", {"A": {"allOf": [{"type": "object"}, {"type": ["string", "null"]}]}})
	vs == {{"path": ["components", "schemas", "A", "allOf", 1, "type"], "message": `allOf member 1 of schema "A" is of type null or string, but member 0 is of type object: no value can be both`}}
}

test_nullable_in_both_is_common_ground if {
	count(rule.violations) == 0 with input as doc("3.0.3", {"A": {"allOf": [{"type": "object", "nullable": true}, {"type": "string", "nullable": true}]}})
}

# Members that write one type alike are never compared pair by pair; a
# third member of another type still is, against each of them.
test_third_member_of_another_type if {
	vs := rule.violations with input as doc("3.0.3", {"A": {"allOf": [{"type": "object", "nullable": true}, {"type": "object"}, {"type": "string"}]}})
	vs == {
		{"path": ["components", "schemas", "A", "allOf", 2, "type"], "message": `allOf member 2 of schema "A" is of type string, but member 0 is of type null or object: no value can be both`},
		{"path": ["components", "schemas", "A", "allOf", 2, "type"], "message": `allOf member 2 of schema "A" is of type string, but member 1 is of type object: no value can be both`},
	}
}

test_members_of_one_type_pass if {
	count(rule.violations) == 0 with input as doc("3.0.3", {"A": {"allOf": [{"type": "object", "nullable": true}, {"type": "object"}]}})
}
