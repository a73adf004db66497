package specgate.rules["description-duplicates-summary_test"]

import data.specgate.rules["description-duplicates-summary"] as rule

op(summary, description) := {"path": "/pets", "method": "get", "summary": summary, "description": description, "webhook": "", "callback": "", "source": ["paths", "/pets", "get"]}

run(ops, items, info) := vs if vs := rule.violations with input as {"operations": ops, "webhooks": [], "callbacks": [], "pathItems": items, "document": {"info": info}}

test_operation_repeats if {
	vs := run([op("List pets", "list  PETS.\n")], [], {})
	vs == {{"path": ["paths", "/pets", "get", "description"], "message": `the description of GET /pets only repeats its summary ("List pets")`}}
}

test_different_or_missing_pass if {
	count(run([op("List pets", "Returns the pets of the store."), op("", ""), op("List pets", "")], [], {})) == 0
}

test_path_item_and_info if {
	item := {"path": "/pets", "node": {"summary": "Pets", "description": "Pets"}, "source": ["paths", "/pets"]}
	vs := run([], [item], {"summary": "Pet store", "description": "Pet store."})
	vs == {
		{"path": ["paths", "/pets", "description"], "message": `the description of path /pets only repeats its summary ("Pets")`},
		{"path": ["info", "description"], "message": `info.description only repeats info.summary ("Pet store")`},
	}
}

# The length bound: a description padded with spaces up to twice its
# summary and 16 more characters is still compared; one beyond it is not.
test_length_bound if {
	padded := concat("", ["Pets.", concat("", [" " | some _ in numbers.range(1, 19)])])
	vs := run([op("Pets", padded)], [], {})
	vs == {{"path": ["paths", "/pets", "get", "description"], "message": `the description of GET /pets only repeats its summary ("Pets")`}}
	count(run([op("Pets", concat("", [padded, " "]))], [], {})) == 0
}

# Blank texts (whitespace only, other spaces than ASCII's included) repeat
# nothing, and a path item with one of the two texts has nothing to repeat.
test_blank_texts_pass if {
	ops := [op(" ", " "), op("\u3000", "\u3000"), op("Pets", "\t\n"), op("\u000b", "\u000b")]
	items := [
		{"path": "/a", "node": {"description": "A"}, "source": ["paths", "/a"]},
		{"path": "/b", "node": {"summary": " ", "description": " "}, "source": ["paths", "/b"]},
	]
	count(run(ops, items, {})) == 0
}
