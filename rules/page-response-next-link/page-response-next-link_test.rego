package specgate.rules["page-response-next-link_test"]

import data.specgate.rules["page-response-next-link"] as rule

resp_src := ["paths", "/pets", "get", "responses", "200"]

schema_src := array.concat(resp_src, ["content", "application/json", "schema"])

op(params, schema, headers) := {"method": "get", "path": "/pets", "source": ["paths", "/pets", "get"], "parameters": [{"name": n, "in": "query"} | some n in params], "responses": [{
	"status": "200", "source": resp_src, "headers": [{"name": h} | some h in headers],
	"content": [{"mediaType": "application/json", "schema": schema, "schemaSource": schema_src}],
}]}

run(o, schemas) := {"document": document(schemas), "operations": [o]}

# document holds named schemas where local $refs point: components
# (OpenAPI 3) and definitions (Swagger 2.0).
document(schemas) := {
	"components": {"schemas": {s.name: s.node | some s in schemas}},
	"definitions": {s.name: s.node | some s in schemas},
}

items := {"type": "array", "items": {}}

with_props(props) := {"type": "object", "properties": object.union({"items": items}, props)}

test_bare_array_without_link_header_is_reported if {
	vs := rule.violations with input as run(op(["page", "per_page"], items, []), [])
	vs == {{
		"path": resp_src,
		"message": "GET /pets takes pagination parameters (page, per_page) but its 200 response (application/json) is a bare array without a Link header, so clients cannot tell whether there is a next page",
	}}
}

test_link_header_passes if {
	count(rule.violations) == 0 with input as run(op(["page"], items, ["link"]), [])
	count(rule.violations) == 0 with input as run(op(["page"], with_props({}), ["Link"]), [])
}

test_object_without_next_hint_is_reported if {
	vs := rule.violations with input as run(op(["limit", "offset"], with_props({"total": {"type": "integer"}}), []), [])
	vs == {{
		"path": resp_src,
		"message": "GET /pets takes pagination parameters (limit, offset) but its 200 response (application/json) has no next link, cursor or has-more property and no Link header, so clients cannot tell how to get the next page",
	}}
}

test_next_hints_pass if {
	every name in ["next", "next_page_uri", "nextPageToken", "has_more", "hasNextPage", "_links", "links", "cursor", "@odata.nextLink", "continuationToken"] {
		count(rule.violations) == 0 with input as run(op(["page"], with_props({name: {"type": "string"}}), []), [])
	}
}

test_next_hint_one_level_down_passes if {
	meta := {"type": "object", "properties": {"next_cursor": {"type": "string"}}}
	count(rule.violations) == 0 with input as run(op(["cursor"], with_props({"meta": meta}), []), [])
	ref := {"$ref": "#/components/schemas/Paging"}
	count(rule.violations) == 0 with input as run(op(["cursor"], with_props({"paging": ref}), []), [{"name": "Paging", "node": meta}])
}

test_next_hint_two_levels_down_does_not_count if {
	deep := {"type": "object", "properties": {"inner": {"type": "object", "properties": {"next": {}}}}}
	count(rule.violations) == 1 with input as run(op(["page"], with_props({"meta": deep}), []), [])
}

test_next_hint_in_all_of_member_passes if {
	schema := {"allOf": [{"$ref": "#/components/schemas/Page"}, with_props({})]}
	page := {"name": "Page", "node": {"properties": {"has_more": {"type": "boolean"}}}}
	count(rule.violations) == 0 with input as run(op(["page"], schema, []), [page])
}

test_unreadable_schemas_are_not_reported if {
	count(rule.violations) == 0 with input as run(op(["page"], with_props({"meta": {"$ref": "other.yaml"}}), []), [])
	count(rule.violations) == 0 with input as run(op(["page"], {"allOf": [{"$ref": "other.yaml"}]}, []), [])
	count(rule.violations) == 0 with input as run(op(["page"], {"type": "object"}, []), [])
	count(rule.violations) == 0 with input as run(op(["page"], {"oneOf": [items, with_props({})]}, []), [])
}

test_not_paginated_is_not_reported if {
	count(rule.violations) == 0 with input as run(op(["limit"], items, []), [])
	count(rule.violations) == 0 with input as run(op(["q"], items, []), [])
}

test_lowest_2xx_is_judged if {
	o := op(["page"], items, [])
	ok := {"status": "201", "source": resp_src, "headers": [{"name": "Link"}], "content": o.responses[0].content}
	two := object.union(o, {"responses": [object.union(o.responses[0], {"status": "202"}), ok]})
	count(rule.violations) == 0 with input as run(two, [])
}

test_continue_token_is_a_next_hint if {
	meta := {"type": "object", "properties": {"continue": {"type": "string"}, "resourceVersion": {"type": "string"}}}
	list := with_props({"items": {"type": "array", "items": {"type": "object"}}, "metadata": meta})
	count(rule.violations) == 0 with input as run(op(["page_token", "limit"], list, []), [])
}
