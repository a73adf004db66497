package specgate.rules["response-header-description_test"]

import data.specgate.rules["response-header-description"] as rule

src(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

header(name, node) := {"name": name, "node": node, "source": src(name)}

test_described_and_not if {
	op := {"path": "/pets", "method": "get", "webhook": "", "callback": "", "responses": [{"status": "200", "headers": [
		header("X-Rate", {"schema": {"type": "integer"}}),
		header("X-Id", {"description": "The request's id.", "schema": {"type": "string"}}),
		header("X-Blank", {"description": "", "schema": {"type": "string"}}),
		header("X-Ext", {"$ref": "other.yaml#/H"}),
	]}]}
	vs := rule.violations with input as {"operations": [op], "webhooks": [], "callbacks": []}
	vs == {
		{"path": src("X-Rate"), "message": `response header "X-Rate" has no description`},
		{"path": src("X-Blank"), "message": `response header "X-Blank" has no description`},
	}
}
