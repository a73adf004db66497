package specgate.rules["operation-tag-defined_test"]

import data.specgate.rules["operation-tag-defined"] as rule

op(method, tags) := {"path": "/pets", "method": method, "tags": tags, "webhook": "", "callback": "", "source": ["paths", "/pets", method]}

run(declared, ops) := vs if vs := rule.violations with input as {"tags": [{"name": t} | some t in declared], "operations": ops, "webhooks": [], "callbacks": []}

test_undeclared_tags if {
	vs := run(["pets", "store"], [op("get", ["pets", "Pets"]), op("post", ["adoption"])])
	vs == {
		{"path": ["paths", "/pets", "get", "tags", 1], "message": `GET /pets uses the tag "Pets", which the top-level tags do not declare (did you mean "pets"?)`},
		{"path": ["paths", "/pets", "post", "tags", 0], "message": `POST /pets uses the tag "adoption", which the top-level tags do not declare`},
	}
}

test_declared_tags_pass if {
	count(run(["pets"], [op("get", ["pets"]), op("post", [])])) == 0
}

test_no_declared_tags_is_left_to_tags_declared if {
	count(run([], [op("get", ["pets"])])) == 0
}
