package specgate.rules["no-reserved-header-parameters_test"]

import data.specgate.rules["no-reserved-header-parameters"] as rule

param(name, where, source) := {"name": name, "in": where, "source": source}

src(i) := ["paths", "/pets", "get", "parameters", i]

test_reserved_names_are_reported_without_case if {
	vs := rule.violations with input as {"format": "openapi", "parameters": [
		param("accept", "header", src(0)),
		param("Content-Type", "header", src(1)),
		param("AUTHORIZATION", "header", src(2)),
	]}
	vs == {
		{"path": array.concat(src(0), ["name"]), "message": `header parameter "accept" is ignored in OpenAPI 3; the media types under each response's content say what the client accepts`},
		{"path": array.concat(src(1), ["name"]), "message": `header parameter "Content-Type" is ignored in OpenAPI 3; the media types under requestBody.content set the request's Content-Type`},
		{"path": array.concat(src(2), ["name"]), "message": `header parameter "AUTHORIZATION" is ignored in OpenAPI 3; declare a security scheme and a security requirement instead`},
	}
}

test_swagger_advice if {
	vs := rule.violations with input as {"format": "swagger", "parameters": [param("Accept", "header", src(0))]}
	vs == {{"path": array.concat(src(0), ["name"]), "message": `header parameter "Accept" repeats what produces declares; list the response media types in produces instead`}}
}

test_other_headers_and_locations_pass if {
	count(rule.violations) == 0 with input as {"format": "openapi", "parameters": [
		param("X-Request-Id", "header", src(0)),
		param("Accept-Language", "header", src(1)),
		param("accept", "query", src(2)),
		param("Authorization", "cookie", src(3)),
		param("X-Authorization", "header", src(4)),
		param("Content-Type-Options", "header", src(5)),
	]}
}
