package specgate.rules["no-http-basic_test"]

import data.specgate.rules["no-http-basic"] as rule

scheme(name, type, s) := {"name": name, "type": type, "scheme": s, "source": ["components", "securitySchemes", name]}

test_basic_is_reported_on_scheme if {
	vs := rule.violations with input as {"format": "openapi", "securitySchemes": [scheme("b", "http", "basic"), scheme("t", "http", "bearer")]}
	vs == {{"path": ["components", "securitySchemes", "b", "scheme"], "message": `security scheme "b" uses HTTP Basic authentication, which sends the password with every request`}}
}

test_swagger_basic_is_reported_on_type if {
	vs := rule.violations with input as {"format": "swagger", "securitySchemes": [scheme("b", "http", "basic")]}
	{v.path | some v in vs} == {["components", "securitySchemes", "b", "type"]}
}

test_other_types_pass if {
	count(rule.violations) == 0 with input as {"format": "openapi", "securitySchemes": [scheme("k", "apiKey", "")]}
}
