package specgate.rules["no-identical-paths_test"]

import data.specgate.rules["no-identical-paths"] as rule

run(paths) := vs if vs := rule.violations with input as {"pathItems": [{"path": p, "methods": ["get"], "source": ["paths", p]} | some p in paths]}

items(paths) := vs if vs := rule.violations with input as {"pathItems": [{"path": p, "methods": ms, "source": ["paths", p]} | some [p, ms] in paths]}

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
		{"path": ["paths", "/search?beta=true"], "message": "path /search?beta=true is the same path as /search (a query string or fragment is not part of the path) and both declare GET; a server cannot tell them apart"},
	}
}

test_different_paths_pass if {
	count(run(["/pets/{id}", "/pets/{id}/", "/pets/mine", "/pets/{id}.json", "/pets"])) == 0
}

# Amazon's specs key operations told apart by a query string as fragments
# (/meetings#operation=create-attendees beside /meetings): uri-names reports
# the fragment; only a method both declare makes the paths clash.
test_query_and_fragment_paths_clash_on_a_shared_method if {
	vs := items([
		["/meetings", ["get", "post"]],
		["/meetings#operation=create-attendees", ["post", "put"]],
		["/meetings#operation=list-attendees", ["head"]],
		["/tags#arn", ["get"]],
		["/tags#operation=tag-resource", ["post"]],
		["/pets/{petId}", ["get"]],
		["/pets/{id}#x", ["delete"]],
	])
	vs == {
		{"path": ["paths", "/meetings#operation=create-attendees"], "message": "path /meetings#operation=create-attendees is the same path as /meetings (a query string or fragment is not part of the path) and both declare POST; a server cannot tell them apart"},
		{"path": ["paths", "/pets/{id}#x"], "message": "path /pets/{id}#x is the same path as /pets/{petId} once template names are set aside; a server cannot tell them apart"},
	}
}

# A path is reported against the first earlier path it clashes with.
test_first_clashing_path_is_named if {
	vs := items([["/a", ["get"]], ["/a#x", ["post"]], ["/a#y", ["post"]]])
	vs == {{"path": ["paths", "/a#y"], "message": "path /a#y is the same path as /a#x (a query string or fragment is not part of the path) and both declare POST; a server cannot tell them apart"}}
}
