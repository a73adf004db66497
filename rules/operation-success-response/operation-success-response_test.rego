package specgate.rules["operation-success-response_test"]

import data.specgate.rules["operation-success-response"] as rule

op(path, method, statuses) := {
	"path": path, "method": method, "webhook": "", "callback": "",
	"responses": [{"status": s} | some s in statuses],
	"node": {"responses": {s: {"description": s} | some s in statuses}},
	"source": ["paths", path, method],
}

run(ops) := vs if vs := rule.violations with input as {"operations": ops, "webhooks": [], "callbacks": []}

test_success_and_redirect_statuses_pass if {
	count(run([
		op("/a", "get", ["200"]),
		op("/b", "post", ["201", "400"]),
		op("/c", "delete", ["204"]),
		op("/d", "get", ["302"]),
		op("/e", "get", ["2XX", "default"]),
		op("/f", "get", ["3xx"]),
	])) == 0
}

test_errors_and_default_only if {
	run([op("/a", "get", ["404", "default"])]) == {{"path": ["paths", "/a", "get", "responses"], "message": "GET /a has no success (2xx) or redirect (3xx) response"}}
}

test_empty_responses if {
	run([op("/a", "put", [])]) == {{"path": ["paths", "/a", "put", "responses"], "message": "PUT /a has no success (2xx) or redirect (3xx) response"}}
}

test_informational_and_malformed_statuses_do_not_count if {
	count(run([op("/a", "get", ["100", "2000", "20"])])) == 1
}

test_missing_responses_points_at_the_operation if {
	o := object.union(object.remove(op("/a", "get", []), ["node"]), {"node": {"summary": "x"}})
	run([o]) == {{"path": ["paths", "/a", "get"], "message": "GET /a declares no responses; add at least one 2xx or 3xx response"}}
}

test_webhooks_are_checked if {
	hook := object.union(op("newPet", "post", ["400"]), {"webhook": "newPet", "source": ["webhooks", "newPet", "post"]})
	vs := rule.violations with input as {"operations": [], "webhooks": [hook], "callbacks": []}
	vs == {{"path": ["webhooks", "newPet", "post", "responses"], "message": "POST webhook newPet has no success (2xx) or redirect (3xx) response"}}
}
