package specgate.rules["header-names-no-underscore_test"]

import data.specgate.rules["header-names-no-underscore"] as rule

hsrc(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

psrc := ["paths", "/pets", "get", "parameters", 0]

# run lints, as lint does (specgate.test_input), a document whose GET
# /pets takes the parameters and answers 200 with the response headers.
run(params, headers) := vs if {
	d := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"get": {
		"parameters": [object.union(object.remove(p, ["source"]), {"schema": {"type": "string"}}) | some p in params],
		"responses": {"200": {"description": "d", "headers": {h.name: {"schema": {"type": "string"}} | some h in headers}}},
	}}}}
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

test_hyphens_pass if {
	count(run([{"name": "X-Api-Version", "in": "header", "source": psrc}], [{"name": "X-Rate-Limit", "source": hsrc("X-Rate-Limit")}])) == 0
}

test_underscores_are_reported if {
	vs := run([{"name": "X_Api_Version", "in": "header", "source": psrc}], [{"name": "rate_limit", "source": hsrc("rate_limit")}])
	vs == {
		{"path": array.concat(psrc, ["name"]), "message": `header parameter "X_Api_Version" has an underscore, which proxies such as nginx drop by default (use "X-Api-Version")`},
		{"path": hsrc("rate_limit"), "message": `response header "rate_limit" has an underscore, which proxies such as nginx drop by default (use "rate-limit")`},
	}
}

test_invalid_names_are_left_to_header_names_valid if {
	count(run([{"name": "x_a b", "in": "header", "source": psrc}], [])) == 0
}

test_query_parameters_are_not_checked if {
	count(run([{"name": "page_size", "in": "query", "source": psrc}], [])) == 0
}
