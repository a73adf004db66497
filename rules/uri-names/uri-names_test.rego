package specgate.rules["uri-names_test"]

import data.specgate.rules["uri-names"] as rule

# paths(ps) is the input lint builds for a document with these paths
# (specgate.test_input): each path item's segments and shape, and the
# items by segment, are built in Go.
paths(ps) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {p: {} | some p in ps}})

messages(ps) := {v.message | some v in vs} if vs := rule.violations with input as paths(ps)

test_clean_paths if {
	count(rule.violations) == 0 with input as paths([
		"/",
		"/users",
		"/users/{id}",
		"/v1.2/users",
		"/userAccounts",
		"/.well-known/security.txt",
		"/{name}:cancel",
		"/compare/{base}...{head}",
		"/compare/{base}..{head}",
	])
}

test_trailing_slash if {
	vs := rule.violations with input as paths(["/users/"])
	vs == {{"path": ["paths", "/users/"], "message": `path /users/ ends with a slash; remove the trailing "/"`}}
}

test_empty_segment if {
	messages(["/users//{id}"]) == {`path /users//{id} has an empty segment ("//")`}
}

test_query_string if {
	messages(["/search?q={q}"]) == {`path /search?q={q} contains a query string ("?q={q}"); declare query parameters instead`}
}

test_query_string_after_a_slash_is_also_a_trailing_slash if {
	messages(["/search/?q=1"]) == {
		`path /search/?q=1 ends with a slash; remove the trailing "/"`,
		`path /search/?q=1 contains a query string ("?q=1"); declare query parameters instead`,
	}
}

test_root_with_query_has_no_trailing_slash if {
	messages(["/?q=1"]) == {`path /?q=1 contains a query string ("?q=1"); declare query parameters instead`}
}

test_fragment if {
	messages(["/docs#intro"]) == {`path /docs#intro contains a fragment ("#intro"); a fragment is never sent to the server`}
}

test_whitespace if {
	messages(["/user list/{id}"]) == {`path segment "user list" of /user list/{id} contains whitespace`}
}

test_whitespace_in_a_template_is_not_reported if {
	count(rule.violations) == 0 with input as paths(["/users/{user id}"])
}

test_percent_encoding if {
	messages(["/user%20list/a%2Fb"]) == {
		`path segment "user%20list" of /user%20list/a%2Fb contains percent-encoded characters (%20); write the characters themselves`,
		`path segment "a%2Fb" of /user%20list/a%2Fb contains percent-encoded characters (%2F); write the characters themselves`,
	}
}

test_file_extensions if {
	messages(["/2010-04-01/Accounts/{Sid}/Calls.json", "/index.PHP", "/items/{id}.{format}"]) == {
		`path segment "Calls.json" of /2010-04-01/Accounts/{Sid}/Calls.json has a file extension (".json"); let clients choose the format with the Accept header`,
		`path segment "index.PHP" of /index.PHP has a file extension (".PHP"); let clients choose the format with the Accept header`,
		`path segment "{id}.{format}" of /items/{id}.{format} has a file extension (".{format}"); let clients choose the format with the Accept header`,
	}
}

test_well_known_names_may_have_extensions_but_not_elsewhere if {
	messages(["/.well-known/assetlinks.json/x.json"]) == {`path segment "x.json" of /.well-known/assetlinks.json/x.json has a file extension (".json"); let clients choose the format with the Accept header`}
}

test_casing_is_left_to_paths_kebab_case if {
	count(rule.violations) == 0 with input as paths(["/UserAccounts/{ID}/user_settings"])
}
