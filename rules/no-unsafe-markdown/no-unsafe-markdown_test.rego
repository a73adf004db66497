package specgate.rules["no-unsafe-markdown_test"]

import data.specgate.lib.correctness
import data.specgate.rules["no-unsafe-markdown"] as rule

schema(node) := {"name": "P", "node": node, "source": ["components", "schemas", "P"]}

doc(info, schemas) := {"format": "openapi", "document": {"info": info}, "tags": [], "operations": [], "webhooks": [], "callbacks": [], "parameters": [], "servers": [], "securitySchemes": [], "schemasWith": correctness.index(schemas)}

test_safe_html_and_links_pass if {
	count(rule.violations) == 0 with input as doc({"description": "See <b>bold</b> and [docs](https://x.org). Onboarding = easy."}, [])
}

test_script_tag if {
	vs := rule.violations with input as doc({"description": "Hi <SCRIPT>alert(1)</SCRIPT>"}, [])
	vs == {{"path": ["info", "description"], "message": "the description contains a <script> tag, which runs as script where descriptions are rendered as HTML"}}
}

test_event_handler_and_javascript_link if {
	vs := rule.violations with input as doc({}, [schema({"title": "<img src=x onerror=alert(1)>", "description": "[click](javascript:alert(1))"})])
	vs == {
		{"path": ["components", "schemas", "P", "title"], "message": "the title contains an HTML event handler attribute, which runs as script where descriptions are rendered as HTML"},
		{"path": ["components", "schemas", "P", "description"], "message": "the description contains a javascript: link, which runs as script where descriptions are rendered as HTML"},
	}
}
