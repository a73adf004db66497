package specgate.rules["header-names-valid_test"]

import data.specgate.rules["header-names-valid"] as rule

hsrc(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

psrc := ["components", "parameters", "Trace"]

# run lints, as lint does (specgate.test_input), a document whose GET
# /pets takes the parameters (written under components.parameters.Trace)
# and answers 200 with the response headers.
run(params, headers) := vs if {
	d := {
		"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
		"paths": {"/pets": {"get": {
			"parameters": [{"$ref": "#/components/parameters/Trace"} | some _ in params],
			"responses": {"200": {"description": "d", "headers": {h.name: {"schema": {"type": "string"}} | some h in headers}}},
		}}},
		"components": {"parameters": {"Trace": object.union(object.remove(p, ["source"]), {"schema": {"type": "string"}}) | some p in params}},
	}
	i := specgate.test_input(d)
	vs := rule.violations with input as i
}

test_valid_names_pass if {
	count(run([{"name": "X-Request-ID", "in": "header", "source": psrc}], [{"name": "ETag", "source": hsrc("ETag")}, {"name": "x_weird~name!", "source": hsrc("x")}])) == 0
}

test_response_header_with_spaces if {
	vs := run([], [{"name": "X Rate Limit", "source": hsrc("X Rate Limit")}])
	vs == {{"path": hsrc("X Rate Limit"), "message": `response header "X Rate Limit" is not a valid HTTP header name: it contains a space (use "X-Rate-Limit")`}}
}

test_header_parameter_with_colon_and_slash if {
	vs := run([{"name": "X:Trace/Id:", "in": "header", "source": psrc}], [])
	vs == {{"path": array.concat(psrc, ["name"]), "message": `header parameter "X:Trace/Id:" is not a valid HTTP header name: it contains ":", "/" (use "X-Trace-Id")`}}
}

test_empty_name if {
	vs := run([{"name": "", "in": "header", "source": psrc}], [])
	vs == {{"path": array.concat(psrc, ["name"]), "message": `header parameter "" is not a valid HTTP header name: it is empty`}}
}

test_non_ascii_without_hint if {
	vs := run([], [{"name": "Größe", "source": hsrc("Größe")}])
	vs == {{"path": hsrc("Größe"), "message": `response header "Größe" is not a valid HTTP header name: it contains "ö", "ß"`}}
}

test_query_parameters_are_not_headers if {
	count(run([{"name": "a b", "in": "query", "source": psrc}], [])) == 0
}
