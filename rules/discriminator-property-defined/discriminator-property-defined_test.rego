package specgate.rules["discriminator-property-defined_test"]

import data.specgate.rules["discriminator-property-defined"] as rule

# doc(format, version, nodes) is the input lint builds
# (specgate.test_input) for a document of the format and version whose
# named schemas are these.
doc("swagger", _, nodes) := specgate.test_input({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": nodes})

doc("openapi", version, nodes) := specgate.test_input({"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": nodes}})

cat := {"properties": {"petType": {}}}

test_defined_everywhere_passes if {
	count(rule.violations) == 0 with input as doc("openapi", "3.0.3", {
		"Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"allOf": [{"$ref": "#/components/schemas/Cat"}]}], "discriminator": {"propertyName": "petType"}},
		"Cat": cat,
		"Base": {"properties": {"kind": {}}, "discriminator": {"propertyName": "kind"}},
	})
}

test_alternative_without_the_property if {
	vs := rule.violations with input as doc("openapi", "3.0.3", {
		"Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}], "discriminator": {"propertyName": "petType"}},
		"Cat": cat,
		"Dog": {"properties": {"bark": {}}},
	})
	vs == {{"path": ["components", "schemas", "Pet", "discriminator", "propertyName"], "message": `the discriminator of schema "Pet" reads property "petType", which oneOf member 1 ("#/components/schemas/Dog") does not define`}}
}

test_base_without_the_property if {
	vs := rule.violations with input as doc("openapi", "3.1.0", {"Base": {"properties": {"kind": {}}, "discriminator": {"propertyName": "type"}}})
	count(vs) == 1
}

test_unreadable_alternatives_are_left_alone if {
	count(rule.violations) == 0 with input as doc("openapi", "3.1.0", {"Pet": {"oneOf": [{"$ref": "other.yaml#/Dog"}], "discriminator": {"propertyName": "petType"}}})
}

test_swagger_needs_defined_and_required if {
	vs := rule.violations with input as doc("swagger", "2.0", {
		"A": {"discriminator": "kind", "properties": {"kind": {}}, "required": ["kind"]},
		"B": {"discriminator": "kind", "properties": {"kind": {}}},
		"C": {"discriminator": "kind", "properties": {"type": {}}},
	})
	vs == {
		{"path": ["definitions", "B", "discriminator"], "message": `the discriminator property "kind" of schema "B" is not in required; Swagger 2.0 requires it to be`},
		{"path": ["definitions", "C", "discriminator"], "message": `the discriminator of schema "C" names property "kind", which the schema does not define`},
	}
}
