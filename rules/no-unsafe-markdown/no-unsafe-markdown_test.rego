package specgate.rules["no-unsafe-markdown_test"]

import data.specgate.rules["no-unsafe-markdown"] as rule

base := {
	"document": {"info": {"title": "Pets"}}, "operations": [], "webhooks": [], "callbacks": [], "pathItems": [],
	"parameters": [], "schemas": [], "tags": [], "servers": [], "securitySchemes": [],
}

run(extra) := vs if vs := rule.violations with input as object.union(base, extra)

tail := "documentation that renders it runs it in readers' browsers"

test_script_tag_in_info if {
	vs := run({"document": {"info": {"title": "Pets", "description": "Hi <SCRIPT src=x></SCRIPT>"}}})
	vs == {{"path": ["info", "description"], "message": sprintf("info.description contains a <script> tag; %s", [tail])}}
}

test_event_handler_and_javascript_url if {
	op := {"path": "/pets", "method": "get", "webhook": "", "callback": "", "summary": "", "description": `<img src="x" onerror="alert(1)"> and [x](javascript:alert(1))`, "requestBody": null, "responses": [], "source": ["paths", "/pets", "get"]}
	vs := run({"operations": [op]})
	vs == {
		{"path": ["paths", "/pets", "get", "description"], "message": sprintf("the description of GET /pets contains an HTML event handler attribute; %s", [tail])},
		{"path": ["paths", "/pets", "get", "description"], "message": sprintf("the description of GET /pets contains a javascript: URL; %s", [tail])},
	}
}

test_schemas_tags_parameters if {
	vs := run({
		"schemas": [{"name": "Pet", "node": {"description": "<script>x</script>", "title": "<script>y</script>"}, "source": ["components", "schemas", "Pet"]}],
		"tags": [{"name": "pets", "description": `<a href='JavaScript:go()'>go</a>`, "source": ["tags", 0]}],
		"parameters": [{"name": "q", "in": "query", "node": {"description": "<b>safe</b> text, a < b, eval(x)"}, "source": ["components", "parameters", "Q"]}],
	})
	vs == {
		{"path": ["components", "schemas", "Pet", "description"], "message": sprintf("the description of schema Pet contains a <script> tag; %s", [tail])},
		{"path": ["tags", 0, "description"], "message": sprintf("the description of tag \"pets\" contains a javascript: URL; %s", [tail])},
	}
}

test_safe_html_passes if {
	count(run({"document": {"info": {"title": "Pets", "description": "<details><summary>More</summary>See <a href=\"https://acme.dev\">docs</a>; one < two; use eval() with care; description text.</details>"}}})) == 0
}
