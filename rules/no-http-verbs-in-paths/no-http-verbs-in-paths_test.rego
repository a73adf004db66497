package specgate.rules["no-http-verbs-in-paths_test"]

import data.specgate.rules["no-http-verbs-in-paths"] as rule

# paths(ps) is the input lint builds for a document with these paths
# (specgate.test_input): each path item's segments and shape, and the
# items by segment, are built in Go.
paths(ps) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {p: {} | some p in ps}})

run(ps) := vs if vs := rule.violations with input as paths(ps)

test_method_words_are_reported if {
	vs := run(["/users/{id}/delete", "/getUsers", "/attestations/delete-request", "/orders/{id}/Post"])
	vs == {
		{"path": ["paths", "/users/{id}/delete"], "message": `path /users/{id}/delete names the HTTP method "delete" in its segment "delete"; let the operation's method say what it does`},
		{"path": ["paths", "/getUsers"], "message": `path /getUsers names the HTTP method "get" in its segment "getUsers"; let the operation's method say what it does`},
		{"path": ["paths", "/attestations/delete-request"], "message": `path /attestations/delete-request names the HTTP method "delete" in its segment "delete-request"; let the operation's method say what it does`},
		{"path": ["paths", "/orders/{id}/Post"], "message": `path /orders/{id}/Post names the HTTP method "post" in its segment "Post"; let the operation's method say what it does`},
	}
}

test_words_that_only_contain_a_method_pass if {
	count(run(["/posts", "/output", "/budgets/{budget}", "/git/head", "/options", "/users/{get}", "/widgets/{putId}"])) == 0
}
