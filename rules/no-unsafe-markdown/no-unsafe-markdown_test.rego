package specgate.rules["no-unsafe-markdown_test"]

import data.specgate.rules["no-unsafe-markdown"] as rule

# doc is an input with the given fields; its markupTexts, which
# policy.Input finds in the document, are here every string of them.
doc(extra) := object.union(
	{"document": {}, "schemas": [], "parameters": [], "tags": [], "servers": [], "securitySchemes": [], "operations": [], "webhooks": [], "callbacks": [],
		"markupTexts": {t | walk(extra, [_, t]); is_string(t)}},
	extra,
)

test_script_handler_and_javascript_links if {
	vs := rule.violations with input as doc({"document": {"components": {"schemas": {"A": {}, "B": {}, "C": {}, "D": {}}}}, "schemas": [
		{"node": {"description": "Hi <SCRIPT>alert(1)</script>"}, "source": ["components", "schemas", "A"]},
		{"node": {"title": "<img src=x onerror=alert(1)>"}, "source": ["components", "schemas", "B"]},
		{"node": {"description": "[click](javascript:alert(1))"}, "source": ["components", "schemas", "C"]},
		{"node": {"description": "[click][x]\n\n[x]: JavaScript:alert(1)", "title": "<javascript:alert(1)>"}, "source": ["components", "schemas", "D"]},
	]})
	vs == {
		{"path": ["components", "schemas", "A", "description"], "message": "description contains a <script> tag, which would run in the browser of anyone reading the rendered documentation"},
		{"path": ["components", "schemas", "B", "title"], "message": "title contains an HTML event handler attribute, which would run in the browser of anyone reading the rendered documentation"},
		{"path": ["components", "schemas", "C", "description"], "message": "description contains a javascript: link, which would run in the browser of anyone reading the rendered documentation"},
		{"path": ["components", "schemas", "D", "description"], "message": "description contains a javascript: link, which would run in the browser of anyone reading the rendered documentation"},
		{"path": ["components", "schemas", "D", "title"], "message": "title contains a javascript: link, which would run in the browser of anyone reading the rendered documentation"},
	}
}

test_every_documented_place if {
	text := "<script>x</script>"
	responses := {"200": {"description": text, "headers": {"X-Rate": {"description": text}, "X-Ref": {"$ref": "#/components/headers/X"}}}, "404": {"$ref": "#/components/responses/NotFound"}}
	op := {"source": ["paths", "/a", "get"], "description": text, "node": {"summary": "ok", "responses": responses}, "requestBody": {"description": text, "source": ["paths", "/a", "get", "requestBody"]}}
	vs := rule.violations with input as doc({
		"document": {"info": {"description": text}, "components": {
			"responses": {"NotFound": {"description": text, "headers": {"Y": {"description": text}}}},
			"headers": {"X": {"description": text}},
		}},
		"parameters": [{"node": {"description": text}, "source": ["p"]}],
		"tags": [{"node": {"description": text}, "source": ["t"]}],
		"servers": [{"node": {"description": text}, "source": ["s"]}],
		"securitySchemes": [{"node": {"description": text}, "source": ["k"]}],
		"webhooks": [op],
	})
	{v.path | some v in vs} == {
		["info", "description"], ["p", "description"], ["t", "description"], ["s", "description"], ["k", "description"],
		["paths", "/a", "get", "description"], ["paths", "/a", "get", "requestBody", "description"],
		["paths", "/a", "get", "responses", "200", "description"],
		["components", "responses", "NotFound", "description"],
	}
}

test_inert_text_passes if {
	count(rule.violations) == 0 with input as doc({"document": {"definitions": {"a": {}, "b": {}}}, "schemas": [
		{"node": {"description": "Use eval(x) with care; see the onboarding = guide, and javascript: the language."}, "source": ["a"]},
		{"node": {"description": "Set `<b>` tags. Links: [docs](https://example.com)."}, "source": ["b"]},
	]})
}
