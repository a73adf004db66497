package specgate.rules["no-http-verbs-in-paths_test"]

import data.specgate.rules["no-http-verbs-in-paths"] as rule

item(path) := {"path": path, "source": ["paths", path]}

run(paths) := vs if vs := rule.violations with input as {"pathItems": [item(p) | some p in paths]}

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
