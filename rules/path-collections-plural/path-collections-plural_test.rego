package specgate.rules["path-collections-plural_test"]

import data.specgate.rules["path-collections-plural"] as rule

# paths(ps) is the input lint builds for a document with these paths
# (specgate.test_input): each path item's segments and shape, and the
# items by segment, are built in Go.
paths(ps) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {p: {} | some p in ps}})

run(ps) := vs if vs := rule.violations with input as paths(ps)

test_singular_collections if {
	vs := run(["/user/{userId}", "/git/ref/{ref}", "/deployment-record/{record_id}", "/order/{id}/item/{itemId}"])
	vs == {
		{"path": ["paths", "/user/{userId}"], "message": `path segment "user" of /user/{userId} names the collection that {userId} belongs to, but is not plural`},
		{"path": ["paths", "/git/ref/{ref}"], "message": `path segment "ref" of /git/ref/{ref} names the collection that {ref} belongs to, but is not plural`},
		{"path": ["paths", "/deployment-record/{record_id}"], "message": `path segment "deployment-record" of /deployment-record/{record_id} names the collection that {record_id} belongs to, but is not plural`},
		{"path": ["paths", "/order/{id}/item/{itemId}"], "message": `path segment "order" of /order/{id}/item/{itemId} names the collection that {id} belongs to, but is not plural`},
		{"path": ["paths", "/order/{id}/item/{itemId}"], "message": `path segment "item" of /order/{id}/item/{itemId} names the collection that {itemId} belongs to, but is not plural`},
	}
}

test_plural_and_uncountable_pass if {
	count(run(["/users/{userId}", "/people/{id}", "/balance/history/{id}", "/media/{media_id}", "/addresses/{address}", "/statuses/{id}"])) == 0
}

test_other_templates_are_not_judged if {
	count(run(["/compare/{basehead}", "/tarball/{ref}", "/user/{account_id}", "/blocked_by/{issue_id}", "/v1/{id}", "/user", "/{id}/user"])) == 0
}
