package specgate.rules["header-names-no-underscore_test"]

import data.specgate.rules["header-names-no-underscore"] as rule

op(headers) := {"path": "/pets", "method": "get", "webhook": "", "callback": "", "responses": [{"status": "200", "headers": headers}]}

hsrc(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

psrc := ["paths", "/pets", "get", "parameters", 0]

run(params, headers) := vs if vs := rule.violations with input as {"parameters": params, "operations": [op(headers)], "webhooks": [], "callbacks": []}

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
