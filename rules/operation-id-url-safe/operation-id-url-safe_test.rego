package specgate.rules["operation-id-url-safe_test"]

import data.specgate.rules["operation-id-url-safe"] as rule

op(id) := {"path": "/pets", "method": "get", "operationId": id, "webhook": "", "callback": "", "source": ["paths", "/pets", "get"]}

run(ops) := vs if vs := rule.violations with input as {"operations": ops, "webhooks": [], "callbacks": []}

test_safe_ids_pass if {
	count(run([op("findPetById"), op("repos/get-content"), op("pets.list_v2"), op("a:b~c@d!e$f&g'h(i)j*k+l,m;n=o[p]q?r#s"), op("")])) == 0
}

test_unsafe_characters_are_listed_once if {
	vs := run([op("find pet by {id}%")])
	vs == {{"path": ["paths", "/pets", "get", "operationId"], "message": `operationId "find pet by {id}%" of GET /pets contains a space, "{", "}", "%", which a URL cannot hold unencoded`}}
}

test_non_ascii if {
	vs := run([op("listHaustiere\u00e4")])
	count(vs) == 1
}
