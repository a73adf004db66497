package specgate.rules["no-eval-in-markdown_test"]

import data.specgate.rules["no-eval-in-markdown"] as rule

doc(prose) := {"prose": prose, "proseText": concat("\n", [p.text | some p in prose])}

text(path, t, file) := {"pointer": concat("", [sprintf("/%v", [seg]) | some seg in path]), "text": t, "file": file}

test_plain_text_passes if {
	count(rule.violations) == 0 with input as doc([text(["info", "description"], "Evaluates pets (no code).", "")])
}

test_eval if {
	vs := rule.violations with input as doc([text(["tags", "0", "description"], "x <img onerror=\"eval(1)\">", "")])
	vs == {{"path": ["tags", "0", "description"], "message": "the description contains eval(, the mark of a script; descriptions are rendered as HTML"}}
}

test_other_files if {
	vs := rule.violations with input as doc([text(["Pet", "description"], "eval(x)", "pet.yaml")])
	vs == {{"path": ["Pet", "description"], "message": "the description contains eval(, the mark of a script; descriptions are rendered as HTML", "file": "pet.yaml"}}
}
