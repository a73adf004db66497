package specgate.rules["response-header-schema_test"]

import data.specgate.rules["response-header-schema"] as rule

op(headers) := {"path": "/pets", "method": "get", "webhook": "", "callback": "", "responses": [{"status": "200", "headers": headers}]}

src(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

header(name, node, schema) := {"name": name, "node": node, "schema": schema, "source": src(name)}

run(format, headers) := vs if vs := rule.violations with input as {"format": format, "operations": [op(headers)], "webhooks": [], "callbacks": []}

test_oas3_schema_or_content_pass if {
	count(run("openapi", [
		header("A", {"schema": {"type": "integer"}}, {"type": "integer"}),
		header("B", {"content": {"text/plain": {}}}, null),
		header("C", {"$ref": "other.yaml#/H"}, null),
	])) == 0
}

test_oas3_without_schema if {
	vs := run("openapi", [header("X-Rate-Limit", {"description": "left"}, null)])
	vs == {{"path": src("X-Rate-Limit"), "message": `response header "X-Rate-Limit" has no schema; declare its type with schema (or content)`}}
}

test_swagger_needs_type if {
	ok := {"type": "integer"}
	bad := {"description": "left"}
	vs := run("swagger", [header("A", ok, ok), header("B", bad, bad)])
	vs == {{"path": src("B"), "message": `response header "B" has no type; declare it with type (and items for an array)`}}
}
