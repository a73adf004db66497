package specgate.rules["no-credentials-in-url_test"]

import data.specgate.rules["no-credentials-in-url"] as rule

param(name, where, type) := {"name": name, "in": where, "schema": {"type": type}}

# ops(path, params) is the input lint builds (specgate.test_input) for a
# document whose GET operation at path takes the parameters.
ops(path, params) := specgate.test_input({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {path: {"get": {
	"parameters": params,
	"responses": {"200": {"description": "d"}},
}}}})

flagged(path, params) := {v.message | some v in vs} if {
	vs := rule.violations with input as ops(path, params)
}

test_credentials_in_query_and_path if {
	flagged("/a/{webhook_token}", [
		param("client_secret", "query", "string"),
		param("webhook_token", "path", "string"),
		param("apiKey", "query", "string"),
		param("X-Api-Key", "query", "string"),
		param("password", "query", "string"),
		param("JSESSIONID", "query", "string"),
	]) == {
		`query parameter "client_secret" sends a credential in the URL`,
		`path parameter "webhook_token" sends a credential in the URL`,
		`query parameter "apiKey" sends a credential in the URL`,
		`query parameter "X-Api-Key" sends a credential in the URL`,
		`query parameter "password" sends a credential in the URL`,
		`query parameter "JSESSIONID" sends a credential in the URL`,
	}
}

test_reports_on_the_name if {
	vs := rule.violations with input as ops("/a", [param("token", "query", "string")])
	vs == {{"path": ["paths", "/a", "get", "parameters", 0, "name"], "message": `query parameter "token" sends a credential in the URL`}}
}

test_names_that_are_not_credentials if {
	count(flagged("/secrets/{secret_name}", [
		param("secret_name", "path", "string"),
		param("token_type_hint", "query", "string"),
		param("api_key_id", "query", "string"),
		param("page_token", "query", "string"),
		param("nextPageToken", "query", "string"),
		param("PageToken", "query", "string"),
		param("secret_type", "query", "string"),
		param("author", "query", "string"),
	])) == 0
}

test_non_string_parameters_are_not_credentials if {
	count(flagged("/a", [param("hide_secret", "query", "boolean"), param("tokens", "query", "array")])) == 0
}

test_headers_and_cookies_are_not_urls if {
	count(flagged("/a", [param("X-Api-Key", "header", "string"), param("session_token", "cookie", "string")])) == 0
}

test_resource_named_after_its_collection if {
	count(flagged("/v1/tokens/{token}", [param("token", "path", "string")])) == 0
	count(flagged("/v1/tokens/{token}#revoke", [param("token", "path", "string")])) == 0
	count(flagged("/v1/passwords/{password}", [param("password", "path", "string")])) == 0
	count(flagged("/v1/shipping_rates/{shipping_rate_token}", [param("shipping_rate_token", "path", "string")])) == 0
	count(flagged("/v1/shippingRates/{shipping_rate_token}", [param("shipping_rate_token", "path", "string")])) == 0
}

test_item_of_another_collection_is_a_credential if {
	count(flagged("/webhooks/{webhook_id}/{webhook_token}", [param("webhook_token", "path", "string")])) == 1
	count(flagged("/sessions/{refresh_token}", [param("refresh_token", "path", "string")])) == 1
}

test_oas31_type_array_and_untyped if {
	p := {"name": "secret", "in": "query", "schema": {"type": ["string", "null"]}, "source": ["s"]}
	q := {"name": "secret2Token", "in": "query", "schema": null, "source": ["t"]}
	count(flagged("/a", [p, q])) == 2
}
