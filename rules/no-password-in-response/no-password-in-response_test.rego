package specgate.rules["no-password-in-response_test"]

import data.specgate.rules["no-password-in-response"] as rule

schema(name, properties) := {"name": name, "node": {"properties": properties}, "source": ["components", "schemas", name]}

messages(schemas) := {v.message | some v in vs} if {
	vs := rule.violations with input as {"responseSchemas": schemas, "parameters": []}
}

test_password_properties if {
	messages([schema("User", {
		"password": {"type": "string"},
		"passwordHash": {"type": "string"},
		"new_passphrase": {},
		"password_confirmation": {"type": ["string", "null"]},
	})]) == {
		`property "password" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "passwordHash" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "new_passphrase" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
		`property "password_confirmation" of schema "User" sends a password in responses; mark it writeOnly unless the API issues it on purpose`,
	}
}

test_write_only_refs_and_other_names_pass if {
	count(messages([schema("User", {
		"password": {"type": "string", "writeOnly": true},
		"secret": {"$ref": "#/components/schemas/Password"},
		"password_expires_at": {"type": "string"},
		"has_password": {"type": "boolean"},
		"passwords_enabled": {"type": "boolean"},
	})])) == 0
}

test_reports_on_the_property_of_an_inline_response_schema if {
	s := {"name": "", "node": {"properties": {"password": {"type": "string"}}}, "source": ["paths", "/me", "get", "responses", "200", "content", "application/json", "schema"]}
	vs := rule.violations with input as {"responseSchemas": [s], "parameters": []}
	vs == {{"path": array.concat(s.source, ["properties", "password"]), "message": `property "password" of response 200 of GET /me sends a password in responses; mark it writeOnly unless the API issues it on purpose`}}
}
