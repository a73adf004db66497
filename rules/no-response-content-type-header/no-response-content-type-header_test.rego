package specgate.rules["no-response-content-type-header_test"]

import data.specgate.rules["no-response-content-type-header"] as rule

header(name, source) := {"name": name, "source": source}

op(headers) := {"path": "/pets", "method": "get", "webhook": "", "callback": "", "responses": [{"status": "200", "headers": headers}]}

src(name) := ["paths", "/pets", "get", "responses", "200", "headers", name]

run(format, headers) := vs if vs := rule.violations with input as {"format": format, "operations": [op(headers)], "webhooks": [], "callbacks": []}

test_content_type_is_reported_without_case if {
	vs := run("openapi", [header("content-type", src("content-type")), header("X-Rate", src("X-Rate"))])
	vs == {{"path": src("content-type"), "message": `response header "content-type" is ignored in OpenAPI 3; the media types under the response's content set Content-Type`}}
}

test_swagger_message if {
	vs := run("swagger", [header("Content-Type", src("Content-Type"))])
	vs == {{"path": src("Content-Type"), "message": `response header "Content-Type" repeats what produces declares; list the response's media types in produces instead`}}
}

test_other_headers_pass if {
	count(run("openapi", [header("Content-Language", src("Content-Language")), header("Location", src("Location"))])) == 0
}
