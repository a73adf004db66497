package specgate.rules["no-eval-in-markdown_test"]

import data.specgate.rules["no-eval-in-markdown"] as rule

# The document's texts are searched in Go (specgate.prose_matching, tested
# in the policy package); here it searches these with the rule's pattern.
search(pattern) := [t | some t in _texts; regex.match(pattern, t[1])]

_texts := [
	[["info", "description"], "Evaluates pets (no code).", ""],
	[["tags", 0, "description"], "x <img onerror=\"eval(1)\">", ""],
	[["Pet", "description"], "eval(x)", "pet.yaml"],
	[["info", "title"], "Pets: evaluate()", ""],
]

test_findings if {
	vs := rule.violations with specgate.prose_matching as search
	vs == {
		{"path": ["tags", 0, "description"], "message": "the description contains eval(, the mark of a script; descriptions are rendered as HTML"},
		{"path": ["Pet", "description"], "message": "the description contains eval(, the mark of a script; descriptions are rendered as HTML", "file": "pet.yaml"},
	}
}

test_plain_text_passes if {
	count(rule.violations) == 0 with specgate.prose_matching as none
}

none(_) := []
