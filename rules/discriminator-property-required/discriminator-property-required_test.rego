package specgate.rules["discriminator-property-required_test"]

import data.specgate.rules["discriminator-property-required"] as rule

# doc(version, nodes) is the input lint builds (specgate.test_input) for
# a document of the OpenAPI version whose named schemas are these.
doc(version, nodes) := specgate.test_input({"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": nodes}})

test_required_property_passes if {
	count(rule.violations) == 0 with input as doc("3.1.0", {
		"Base": {"required": ["kind"], "properties": {"kind": {}}, "discriminator": {"propertyName": "kind"}},
		"Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {"propertyName": "petType"}},
		"Cat": {"allOf": [{"required": ["petType"]}], "properties": {"petType": {}}},
	})
}

test_optional_property if {
	vs := rule.violations with input as doc("3.1.0", {"Base": {"properties": {"kind": {}}, "discriminator": {"propertyName": "kind"}}})
	vs == {{"path": ["components", "schemas", "Base", "discriminator", "propertyName"], "message": `the discriminator of schema "Base" reads property "kind", which the schema does not require; require it so every value says its schema`}}
}

test_optional_in_an_alternative if {
	vs := rule.violations with input as doc("3.0.3", {
		"Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {"propertyName": "petType"}},
		"Cat": {"properties": {"petType": {}}},
	})
	vs == {{"path": ["components", "schemas", "Pet", "discriminator", "propertyName"], "message": `the discriminator of schema "Pet" reads property "petType", which oneOf member 0 does not require; require it so every value says its schema`}}
}

test_default_mapping_makes_it_optional_in_3_2 if {
	count(rule.violations) == 0 with input as doc("3.2.0", {"Base": {"properties": {"kind": {}}, "discriminator": {"propertyName": "kind", "defaultMapping": "Base"}}})
}

test_members_that_do_not_require_it_are_one_finding if {
	vs := rule.violations with input as doc("3.0.3", {
		"Pet": {"oneOf": [
			{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"},
			{"$ref": "#/components/schemas/Fox"}, {"$ref": "#/components/schemas/Owl"},
		], "anyOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {"propertyName": "petType"}},
		"Cat": {"properties": {"petType": {}}},
		"Dog": {"properties": {"petType": {}}},
		"Fox": {"required": ["petType"], "properties": {"petType": {}}},
		"Owl": {"properties": {"petType": {}}},
	})
	vs == {{"path": ["components", "schemas", "Pet", "discriminator", "propertyName"], "message": `the discriminator of schema "Pet" reads property "petType", which oneOf members 0, 1 and 3 do not require and anyOf member 0 does not require; require it so every value says its schema`}}
}

test_many_members_are_counted if {
	names := [sprintf("S%d", [i]) | some i in numbers.range(0, 7)]
	nodes := object.union({n: {"properties": {"kind": {}}} | some n in names}, {"Base": {
		"oneOf": [{"$ref": concat("", ["#/components/schemas/", n])} | some n in names],
		"discriminator": {"propertyName": "kind"},
	}})
	vs := rule.violations with input as doc("3.1.0", nodes)
	vs == {{"path": ["components", "schemas", "Base", "discriminator", "propertyName"], "message": `the discriminator of schema "Base" reads property "kind", which oneOf members 0, 1, 2, 3 and 4 others do not require; require it so every value says its schema`}}
}
