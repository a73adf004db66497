package specgate.rules["discriminator-property-defined_test"]

import data.specgate.lib.correctness
import data.specgate.rules["discriminator-property-defined"] as rule

named(name, node, prefix) := {"name": name, "node": node, "source": array.concat(prefix, [name])}

doc(format, version, nodes) := {
	"format": format, "version": version,
	"schemas": [named(n, s, _place(format)) | some n, s in nodes],
	"schemasWith": correctness.index([named(n, s, _place(format)) | some n, s in nodes]),
	"parameters": [], "operations": [],
	"document": _document(format, nodes),
}

_place("swagger") := ["definitions"]

_place("openapi") := ["components", "schemas"]

_document("swagger", nodes) := {"definitions": nodes}

_document("openapi", nodes) := {"components": {"schemas": nodes}}

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
