package specgate.rules["no-eval-in-markdown_test"]

import data.specgate.rules["no-eval-in-markdown"] as rule

doc(info, tags) := {"format": "openapi", "document": {"info": info}, "tags": tags, "operations": [], "webhooks": [], "callbacks": [], "parameters": [], "servers": [], "securitySchemes": [], "schemasWith": {}}

test_plain_text_passes if {
	count(rule.violations) == 0 with input as doc({"title": "Pets", "description": "Evaluates pets (no code)."}, [])
}

test_eval if {
	vs := rule.violations with input as doc({"title": "Pets"}, [{"name": "a", "node": {"description": "x <img onerror=\"eval(1)\">"}, "source": ["tags", 0]}])
	vs == {{"path": ["tags", 0, "description"], "message": "the description contains eval(, the mark of a script; descriptions are rendered as HTML"}}
}
