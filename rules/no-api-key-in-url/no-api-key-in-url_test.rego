package specgate.rules["no-api-key-in-url_test"]

import data.specgate.rules["no-api-key-in-url"] as rule

scheme(name, type, where) := {"name": name, "type": type, "in": where, "paramName": "key", "source": ["components", "securitySchemes", name]}

test_query_key_is_reported_on_in if {
	vs := rule.violations with input as {"securitySchemes": [scheme("k", "apiKey", "query")]}
	vs == {{"path": ["components", "securitySchemes", "k", "in"], "message": `security scheme "k" sends its API key "key" in the URL (in: query)`}}
}

test_header_and_cookie_keys_pass if {
	count(rule.violations) == 0 with input as {"securitySchemes": [scheme("h", "apiKey", "header"), scheme("c", "apiKey", "cookie")]}
}

test_only_api_keys if {
	count(rule.violations) == 0 with input as {"securitySchemes": [scheme("o", "oauth2", "query")]}
}
