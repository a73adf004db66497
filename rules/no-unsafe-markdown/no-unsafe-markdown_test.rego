package specgate.rules["no-unsafe-markdown_test"]

import data.specgate.rules["no-unsafe-markdown"] as rule

# doc is an input made by hand with the given fields, for places a
# document would take long to spell; its index of markup texts, which
# input.Build finds in the document, is here every string of them.
doc(extra) := object.union(
	{"document": {}, "schemas": [], "parameters": [], "tags": [], "servers": [], "securitySchemes": [], "operations": [], "webhooks": [], "callbacks": [],
		"index": {"markupTexts": {t | walk(extra, [_, t]); is_string(t)}}},
	extra,
)

# run lints, as lint does (specgate.test_input), a document.
run(d) := vs if {
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

test_script_handler_and_javascript_links if {
	vs := run({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
		"A": {"description": "Hi <SCRIPT>alert(1)</script>"},
		"B": {"title": "<img src=x onerror=alert(1)>"},
		"C": {"description": "[click](javascript:alert(1))"},
		"D": {"description": "[click][x]\n\n[x]: JavaScript:alert(1)", "title": "<javascript:alert(1)>"},
	}}})
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
	count(run({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": {
		"a": {"description": "Use eval(x) with care; see the onboarding = guide, and javascript: the language."},
		"b": {"description": "Set `<b>` tags. Links: [docs](https://example.com)."},
	}})) == 0
}
