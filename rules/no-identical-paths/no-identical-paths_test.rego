package specgate.rules["no-identical-paths_test"]

import data.specgate.rules["no-identical-paths"] as rule

run(paths) := vs if vs := rule.violations with input as {"pathItems": [{"path": p, "source": ["paths", p]} | some p in paths]}

test_template_names_are_set_aside if {
	vs := run(["/pets/{petId}", "/owners", "/pets/{id}", "/pets/{name}"])
	vs == {
		{"path": ["paths", "/pets/{id}"], "message": "path /pets/{id} is the same path as /pets/{petId} once template names are set aside; a server cannot tell them apart"},
		{"path": ["paths", "/pets/{name}"], "message": "path /pets/{name} is the same path as /pets/{petId} once template names are set aside; a server cannot tell them apart"},
	}
}

test_partial_templates_and_queries if {
	vs := run(["/files/{id}.json", "/files/{name}.json", "/search", "/search?beta=true"])
	vs == {
		{"path": ["paths", "/files/{name}.json"], "message": "path /files/{name}.json is the same path as /files/{id}.json once template names are set aside; a server cannot tell them apart"},
		{"path": ["paths", "/search?beta=true"], "message": "path /search?beta=true is the same path as /search (a query string or fragment is not part of the path); a server cannot tell them apart"},
	}
}

test_different_paths_pass if {
	count(run(["/pets/{id}", "/pets/{id}/", "/pets/mine", "/pets/{id}.json", "/pets"])) == 0
}
