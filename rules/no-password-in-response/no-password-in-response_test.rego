package specgate.rules["no-password-in-response_test"]

import data.specgate.rules["no-password-in-response"] as rule

# property is the entry of input.responseSchemas for an inline property.
property(owner, name, node) := {"name": "", "node": node, "source": array.concat(owner, ["properties", name])}

user := ["components", "schemas", "User"]

messages(schemas) := {v.message | some v in vs} if {
	vs := rule.violations with input as {"format": "openapi", "responseSchemas": schemas, "parameters": []}
}

test_password_properties if {
	messages([
		property(user, "password", {"type": "string"}),
		property(user, "passwordHash", {"type": "string"}),
		property(user, "new_passphrase", {}),
		property(user, "password_confirmation", {"type": ["string", "null"]}),
	]) == {
		`property "password" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "passwordHash" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "new_passphrase" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "password_confirmation" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
	}
}

test_write_only_and_other_names_pass if {
	count(messages([
		property(user, "password", {"type": "string", "writeOnly": true}),
		property(user, "password_expires_at", {"type": "string"}),
		property(user, "has_password", {"type": "boolean"}),
		property(user, "passwords_enabled", {"type": "boolean"}),
		{"name": "Password", "node": {"type": "string"}, "source": ["components", "schemas", "Password"]},
	])) == 0
}

test_reports_on_the_property_of_an_inline_response_schema if {
	s := property(["paths", "/me", "get", "responses", "200", "content", "application/json", "schema"], "password", {"type": "string"})
	vs := rule.violations with input as {"format": "openapi", "responseSchemas": [s], "parameters": []}
	vs == {{"path": s.source, "message": `property "password" of response 200 of GET /me sends a password in responses; mark it writeOnly unless the API issues it on purpose`}}
}

test_swagger_definitions if {
	messages([property(["definitions", "User"], "passwd", {"type": "string"})]) == {`property "passwd" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`}
}
