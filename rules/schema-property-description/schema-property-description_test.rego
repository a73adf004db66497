package specgate.rules["schema-property-description_test"]

import data.specgate.lib.correctness
import data.specgate.rules["schema-property-description"] as rule

schema(name, source, props) := {"name": name, "source": source, "node": {"type": "object", "properties": props}}

test_one_missing_property_is_reported_on_its_key if {
	named := schema("Pet", ["components", "schemas", "Pet"], {
		"status": {"type": "string"},
		"name": {"type": "string", "description": "The pet's name."},
		"owner": {"$ref": "#/components/schemas/Owner"},
		"extra": true,
	})
	nested := schema("", ["components", "schemas", "Pet", "properties", "size", "items"], {"unit": {"type": "string", "description": " "}})
	inline := schema("", ["paths", "/pets", "get", "responses", "200", "content", "application/json", "schema"], {"total": {"type": "integer"}})
	other := schema("", ["x-schemas", "A"], {"b": {"type": "integer"}})
	vs := {v | some v in rule.violations} with input as doc([named, nested, inline, other])
	vs == {
		{"path": ["components", "schemas", "Pet", "properties", "status"], "message": `property "status" of schema Pet has no description`},
		{"path": ["components", "schemas", "Pet", "properties", "size", "items", "properties", "unit"], "message": `property "unit" in schema Pet has no description`},
		{"path": ["paths", "/pets", "get", "responses", "200", "content", "application/json", "schema", "properties", "total"], "message": `property "total" in GET /pets has no description`},
		{"path": ["x-schemas", "A", "properties", "b"], "message": `property "b" has no description`},
	}
}

test_several_are_reported_on_properties if {
	src := ["definitions", "Pet"]
	two := schema("Pet", src, {"b": {"type": "integer"}, "a": {"type": "integer"}})
	vs2 := {v | some v in rule.violations} with input as doc([two])
	vs2 == {{"path": ["definitions", "Pet", "properties"], "message": `properties "a" and "b" of schema Pet have no description`}}
	four := schema("Pet", src, {"d": {}, "c": {}, "b": {}, "a": {}})
	vs4 := {v | some v in rule.violations} with input as doc([four])
	{v.message | some v in vs4} == {`properties "a", "b", "c" and "d" of schema Pet have no description`}
	six := schema("Pet", src, {"f": {}, "e": {}, "d": {}, "c": {}, "b": {}, "a": {}})
	vs6 := {v | some v in rule.violations} with input as doc([six])
	{v.message | some v in vs6} == {`properties "a", "b", "c" and 3 others of schema Pet have no description`}
}

test_swagger_definitions if {
	vs := {v | some v in rule.violations} with input as doc([schema("", ["definitions", "Pet", "properties", "tag"], {"id": {"type": "integer"}})])
	{v.message | some v in vs} == {`property "id" in schema Pet has no description`}
}

doc(schemas) := {"schemas": schemas, "schemasWith": correctness.index(schemas)}
