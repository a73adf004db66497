package specgate.rules["response-401-www-authenticate_test"]

import data.specgate.rules["response-401-www-authenticate"] as rule

response(status, headers) := {"status": status, "headers": [{"name": h} | some h in headers], "source": ["paths", "/pets", "get", "responses", status]}

op(node, responses) := {"path": "/pets", "method": "get", "webhook": "", "callback": "", "node": node, "responses": responses, "source": ["paths", "/pets", "get"]}

test_401_without_challenge if {
	vs := rule.violations with input as {"operations": [op({}, [response("401", []), response("403", [])])]}
	vs == {{"path": ["paths", "/pets", "get", "responses", "401"], "message": "response 401 of GET /pets declares no WWW-Authenticate header, which HTTP requires on a 401"}}
}

test_shared_401 if {
	node := {"responses": {"401": {"$ref": "#/responses/Unauthorized"}}}
	vs := rule.violations with input as {"operations": [op(node, [response("401", [])])]}
	vs == {{"path": ["responses", "Unauthorized"], "message": `response "Unauthorized" declares no WWW-Authenticate header, which HTTP requires on a 401`}}
}

test_challenge_in_any_case_passes if {
	count(rule.violations) == 0 with input as {"operations": [op({}, [response("401", ["www-authenticate"])])]}
}

test_api_without_challenges_is_reported_once if {
	put := object.union(response("401", []), {"source": ["paths", "/pets", "put", "responses", "401"]})
	vs := rule.violations with input as {"operations": [op({}, [response("401", [])]), object.union(op({}, [put]), {"method": "put"})]}
	vs == {{"path": ["paths"], "message": "no WWW-Authenticate header, which HTTP requires, in 2 of 2 401 responses, such as response 401 of GET /pets"}}
}
