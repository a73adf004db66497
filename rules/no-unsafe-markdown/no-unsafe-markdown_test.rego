package specgate.rules["no-unsafe-markdown_test"]

import data.specgate.rules["no-unsafe-markdown"] as rule

doc(prose) := {"prose": prose, "proseText": concat("\n", [p.text | some p in prose])}

text(path, t) := {"pointer": concat("", [sprintf("/%v", [seg]) | some seg in path]), "text": t, "file": ""}

test_safe_html_and_links_pass if {
	count(rule.violations) == 0 with input as doc([text(["info", "description"], "See <b>bold</b> and [docs](https://x.org). Onboarding = easy. JavaScript: a language.")])
}

test_script_tag if {
	vs := rule.violations with input as doc([text(["info", "description"], "Hi <SCRIPT>alert(1)</SCRIPT>")])
	vs == {{"path": ["info", "description"], "message": "the description contains a <script> tag, which runs as script where descriptions are rendered as HTML"}}
}

test_event_handler_and_javascript_link if {
	vs := rule.violations with input as doc([
		text(["components", "schemas", "P", "title"], "<img src=x onerror=alert(1)>"),
		text(["components", "schemas", "P", "description"], "[click](javascript:alert(1))"),
	])
	vs == {
		{"path": ["components", "schemas", "P", "title"], "message": "the title contains an HTML event handler attribute, which runs as script where descriptions are rendered as HTML"},
		{"path": ["components", "schemas", "P", "description"], "message": "the description contains a javascript: link, which runs as script where descriptions are rendered as HTML"},
	}
}
