package specgate.rules["no-password-in-response_test"]

import data.specgate.rules["no-password-in-response"] as rule

# run lints, as lint does (specgate.test_input), a document whose GET /me
# answers with the schema User, which has the properties.
# A schema named Password is there for properties to refer to.
run(properties) := vs if {
	i := specgate.test_input({
		"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
		"paths": {"/me": {"get": {"responses": {"200": {"description": "d", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}}}},
		"components": {"schemas": {"User": {"type": "object", "properties": properties}, "Password": {"type": "string"}}},
	})
	vs := rule.violations with input as i
}

messages(properties) := {v.message | some v in run(properties)}

test_password_properties if {
	messages({
		"password": {"type": "string"},
		"passwordHash": {"type": "string"},
		"new_passphrase": {},
		"password_confirmation": {"type": ["string", "null"]},
	}) == {
		`property "password" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "passwordHash" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "new_passphrase" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "password_confirmation" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
	}
}

test_write_only_and_other_names_pass if {
	count(messages({
		"password": {"type": "string", "writeOnly": true},
		"password_expires_at": {"type": "string"},
		"has_password": {"type": "boolean"},
		"passwords_enabled": {"type": "boolean"},
		"secret": {"$ref": "#/components/schemas/Password"},
	})) == 0
}

# A password property of a schema that only requests carry is not sent.
test_request_only_schemas_pass if {
	i := specgate.test_input({
		"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
		"paths": {"/login": {"post": {
			"requestBody": {"content": {"application/json": {"schema": {"properties": {"password": {"type": "string"}}}}}},
			"responses": {"204": {"description": "d"}},
		}}},
	})
	count(rule.violations) == 0 with input as i
}

test_reports_on_the_property_of_an_inline_response_schema if {
	i := specgate.test_input({
		"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
		"paths": {"/me": {"get": {"responses": {"200": {"description": "d", "content": {"application/json": {"schema": {"properties": {"password": {"type": "string"}}}}}}}}}},
	})
	vs := rule.violations with input as i
	path := ["paths", "/me", "get", "responses", "200", "content", "application/json", "schema", "properties", "password"]
	vs == {{"path": path, "message": `property "password" of response 200 of GET /me sends a password in responses; mark it writeOnly unless the API issues it on purpose`}}
}

test_swagger_definitions if {
	i := specgate.test_input({
		"swagger": "2.0", "info": {"title": "t", "version": "1"},
		"paths": {"/me": {"get": {"responses": {"200": {"description": "d", "schema": {"$ref": "#/definitions/User"}}}}}},
		"definitions": {"User": {"properties": {"passwd": {"type": "string"}}}},
	})
	{v.message | some v in rule.violations} == {`property "passwd" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`} with input as i
}
