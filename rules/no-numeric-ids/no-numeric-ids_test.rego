package specgate.rules["no-numeric-ids_test"]

import data.specgate.rules["no-numeric-ids"] as rule

param(name, where, type) := {"name": name, "in": where, "schema": {"type": type}, "schemaSource": ["p", name, "schema"]}

messages(params) := {v.message | some v in vs} if {
	vs := rule.violations with input as {"parameters": params}
}

test_integer_ids if {
	messages([
		param("id", "path", "integer"),
		param("userId", "path", "integer"),
		param("order_id", "query", "integer"),
		param("X-Request-ID", "header", ["integer", "null"]),
	]) == {
		`path parameter "id" is a numeric id, which can be guessed; use a random identifier such as a UUID`,
		`path parameter "userId" is a numeric id, which can be guessed; use a random identifier such as a UUID`,
		`query parameter "order_id" is a numeric id, which can be guessed; use a random identifier such as a UUID`,
		`header parameter "X-Request-ID" is a numeric id, which can be guessed; use a random identifier such as a UUID`,
	}
}

test_not_ids_or_not_integers if {
	count(messages([
		param("uuid", "path", "integer"),
		param("paid", "query", "integer"),
		param("valid", "query", "integer"),
		param("idempotencyKey", "header", "integer"),
		param("userId", "path", "string"),
		param("orderId", "path", {"a": "integer"}), # not a type: only a list holds types
		param("itemId", "path", ["string", "null"]),
	])) == 0
}

test_reports_on_type if {
	vs := rule.violations with input as {"parameters": [param("id", "path", "integer")]}
	{v.path | some v in vs} == {["p", "id", "schema", "type"]}
}

test_parameter_without_schema if {
	count(messages([{"name": "id", "in": "path", "schema": null, "schemaSource": []}])) == 0
}
