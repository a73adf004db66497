package specgate.rules["path-declarations-must-exist_test"]

import data.specgate.rules["path-declarations-must-exist"] as rule

item(p) := {"path": p, "source": ["paths", p]}

test_named_templates_pass if {
	count(rule.violations) == 0 with input as {"pathItems": [item("/users/{id}"), item("/users")]}
}

test_empty_template if {
	vs := rule.violations with input as {"pathItems": [item("/users/{}/posts/{ }")]}
	vs == {{"path": ["paths", "/users/{}/posts/{ }"], "message": "path /users/{}/posts/{ } has an empty template {}; name the path parameter it stands for"}}
}
