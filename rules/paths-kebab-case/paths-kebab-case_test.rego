package specgate.rules["paths-kebab-case_test"]

import data.specgate.rules["paths-kebab-case"] as rule

# paths(ps) is the input lint builds for a document with these paths
# (specgate.test_input): each path item's segments and shape, and the
# items by segment, are built in Go.
paths(ps) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {p: {} | some p in ps}})

test_camel_case_segment_with_suggestion if {
	vs := rule.violations with input as paths(["/userAccounts/{id}"])
	vs == {{"path": ["paths", "/userAccounts/{id}"], "message": `path segment "userAccounts" of /userAccounts/{id} is not kebab-case (use "user-accounts")`}}
}

test_one_violation_per_segment if {
	vs := rule.violations with input as paths(["/v1/user_profiles/{userId}/Settings"])
	vs == {
		{"path": ["paths", "/v1/user_profiles/{userId}/Settings"], "message": `path segment "user_profiles" of /v1/user_profiles/{userId}/Settings is not kebab-case (use "user-profiles")`},
		{"path": ["paths", "/v1/user_profiles/{userId}/Settings"], "message": `path segment "Settings" of /v1/user_profiles/{userId}/Settings is not kebab-case (use "settings")`},
	}
}

test_accepted_segments if {
	count(rule.violations) == 0 with input as paths([
		"/",
		"/v1.2/.well-known/openid-configuration",
		"/2010-04-01/accounts/{AccountSid}/calls.json",
		"/v1/{name}:cancel",
		"/files/{file_id}.{format}",
		"/users/{id}-{version}",
		"/search?Query={q}",
		"/users/",
	])
}

test_templates_are_not_checked if {
	count(rule.violations) == 0 with input as paths(["/users/{UserID}/{order_id}"])
}

test_text_around_a_template_keeps_its_hyphen if {
	vs := rule.violations with input as paths(["/accounts/{accountId}_Details"])
	vs == {{"path": ["paths", "/accounts/{accountId}_Details"], "message": `path segment "{accountId}_Details" of /accounts/{accountId}_Details is not kebab-case (use "{accountId}-details")`}}
}

test_file_name_and_custom_method_words if {
	vs := rule.violations with input as paths(["/Calls.json", "/v1/{name}:batchGet"])
	vs == {
		{"path": ["paths", "/Calls.json"], "message": `path segment "Calls.json" of /Calls.json is not kebab-case (use "calls.json")`},
		{"path": ["paths", "/v1/{name}:batchGet"], "message": `path segment "{name}:batchGet" of /v1/{name}:batchGet is not kebab-case (use "{name}:batch-get")`},
	}
}

test_reserved_names_keep_their_sigil if {
	count(rule.violations) == 0 with input as paths(["/users/@me", "/odata/$metadata", "/users/~/settings"])
	vs := rule.violations with input as paths(["/users/@currentUser", "/Products/$Count"])
	vs == {
		{"path": ["paths", "/users/@currentUser"], "message": `path segment "@currentUser" of /users/@currentUser is not kebab-case (use "@current-user")`},
		{"path": ["paths", "/Products/$Count"], "message": `path segment "Products" of /Products/$Count is not kebab-case (use "products")`},
		{"path": ["paths", "/Products/$Count"], "message": `path segment "$Count" of /Products/$Count is not kebab-case (use "$count")`},
	}
}

test_no_suggestion_when_none_is_kebab if {
	vs := rule.violations with input as paths(["/users/me!"])
	vs == {{"path": ["paths", "/users/me!"], "message": `path segment "me!" of /users/me! is not kebab-case`}}
}

test_whitespace_and_encoding_are_left_to_uri_names if {
	count(rule.violations) == 0 with input as paths(["/user list", "/user%20List"])
}
