package specgate.rules["page-size-name-consistent_test"]

import data.specgate.rules["page-size-name-consistent"] as rule

param(name, path) := {"name": name, "in": "query", "required": false, "schema": {"type": "integer"}, "source": ["paths", path, "get", "parameters", 0]}

op(path, name) := {"method": "get", "path": path, "parameters": [param(name, path)]}

run(ops) := vs if vs := rule.violations with input as {"operations": ops}

test_minority_name_is_reported if {
	vs := run([op("/a", "per_page"), op("/b", "per_page"), op("/c", "pageSize")])
	vs == {{"path": ["paths", "/c", "get", "parameters", 0, "name"], "message": "query parameter \"pageSize\" of GET /c names the page size differently from most operations of this API, which use \"per_page\""}}
}

test_shared_parameter_counts_per_operation if {
	shared := param("page_size", "/shared")
	ops := [
		{"method": "get", "path": "/a", "parameters": [shared]},
		{"method": "get", "path": "/b", "parameters": [shared]},
		op("/c", "per_page"),
	]
	{v.message | some v in run(ops)} == {"query parameter \"per_page\" of GET /c names the page size differently from most operations of this API, which use \"page_size\""}
}

test_tie_and_one_name_pass if {
	count(run([op("/a", "per_page"), op("/b", "pageSize")])) == 0
	count(run([op("/a", "per_page"), op("/b", "per_page")])) == 0
}
