package specgate.rules["page-response-items-array_test"]

import data.specgate.rules["page-response-items-array"] as rule

resp_src := ["paths", "/pets", "get", "responses", "200"]

schema_src := array.concat(resp_src, ["content", "application/json", "schema"])

q(name) := {"name": name, "in": "query"}

op(method, params, schema) := {"method": method, "path": "/pets", "source": ["paths", "/pets", method], "parameters": [q(n) | some n in params], "responses": [{
	"status": "200", "source": resp_src, "headers": [],
	"content": [{"mediaType": "application/json", "schema": schema, "schemaSource": schema_src}],
}]}

run(o, schemas) := {"document": document(schemas), "operations": [o]}

# document holds named schemas where local $refs point: components
# (OpenAPI 3) and definitions (Swagger 2.0).
document(schemas) := {
	"components": {"schemas": {s.name: s.node | some s in schemas}},
	"definitions": {s.name: s.node | some s in schemas},
}

no_items := {"type": "object", "properties": {"total": {"type": "integer"}, "pet": {"$ref": "#/components/schemas/Pet"}}}

pet := {"name": "Pet", "node": {"type": "object", "properties": {"name": {"type": "string"}}}}

test_object_without_array_is_reported_on_properties if {
	vs := rule.violations with input as run(op("get", ["page"], no_items), [pet])
	vs == {{
		"path": array.concat(schema_src, ["properties"]),
		"message": "GET /pets takes pagination parameters (page) but its 200 response (application/json) has no array property holding the page's items",
	}}
}

test_bare_array_passes if {
	count(rule.violations) == 0 with input as run(op("get", ["page"], {"type": "array", "items": {}}), [])
	count(rule.violations) == 0 with input as run(op("get", ["page"], {"type": ["array", "null"]}), [])
}

test_array_property_passes if {
	schema := {"type": "object", "properties": {"data": {"type": "array", "items": {}}}}
	count(rule.violations) == 0 with input as run(op("get", ["cursor"], schema), [])
}

test_array_property_behind_a_ref_passes if {
	schema := {"properties": {"results": {"$ref": "#/components/schemas/Pets"}}}
	pets := {"name": "Pets", "node": {"type": "array", "items": {}}}
	count(rule.violations) == 0 with input as run(op("get", ["page"], schema), [pets])
}

test_nullable_array_property_passes if {
	schema := {"properties": {"items": {"anyOf": [{"type": "array"}, {"type": "null"}]}}}
	count(rule.violations) == 0 with input as run(op("get", ["page"], schema), [])
}

test_array_property_in_all_of_member_passes if {
	schema := {"allOf": [{"$ref": "#/components/schemas/Page"}, {"properties": {"items": {"items": {}}}}]}
	page := {"name": "Page", "node": {"properties": {"next": {"type": "string"}}}}
	count(rule.violations) == 0 with input as run(op("get", ["page"], schema), [page])
}

test_unreadable_schemas_are_not_reported if {
	external := {"properties": {"pets": {"$ref": "pets.yaml"}}}
	count(rule.violations) == 0 with input as run(op("get", ["page"], external), [])
	either := {"oneOf": [no_items, {"type": "array"}]}
	count(rule.violations) == 0 with input as run(op("get", ["page"], either), [pet])
	count(rule.violations) == 0 with input as run(op("get", ["page"], {"type": "object"}), [])
}

test_pagination_signals if {
	count(rule.violations) == 1 with input as run(op("get", ["limit", "offset"], no_items), [pet])
	count(rule.violations) == 1 with input as run(op("get", ["Limit", "After"], no_items), [pet])
	count(rule.violations) == 1 with input as run(op("get", ["per_page"], no_items), [pet])
	count(rule.violations) == 0 with input as run(op("get", ["limit"], no_items), [pet])
	count(rule.violations) == 0 with input as run(op("get", ["offset"], no_items), [pet])
	count(rule.violations) == 1 with input as run(op("get", ["limit", "starting_after"], no_items), [pet])
	count(rule.violations) == 0 with input as run(op("get", ["starting_after"], no_items), [pet])
	count(rule.violations) == 0 with input as run(op("post", ["page"], no_items), [pet])
}

test_non_json_body_is_not_reported if {
	o := op("get", ["page"], no_items)
	csv := object.union(o, {"responses": [object.union(o.responses[0], {"content": [{"mediaType": "text/csv", "schema": no_items, "schemaSource": schema_src}]})]})
	count(rule.violations) == 0 with input as run(csv, [pet])
	hal := object.union(o, {"responses": [object.union(o.responses[0], {"content": [{"mediaType": "application/hal+json", "schema": no_items, "schemaSource": schema_src}]})]})
	count(rule.violations) == 1 with input as run(hal, [pet])
}
