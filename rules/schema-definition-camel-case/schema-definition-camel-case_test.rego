package specgate.rules["schema-definition-camel-case_test"]

import data.specgate.rules["schema-definition-camel-case"] as rule

doc(names) := {"format": "openapi", "document": {"components": {"schemas": {n: {"type": "object"} | some n in names}}}}

messages(names) := {v.message | some v in vs} if vs := rule.violations with input as doc(names)

test_snake_case_name if {
	vs := rule.violations with input as doc(["user_account"])
	vs == {{"path": ["components", "schemas", "user_account"], "message": `schema name "user_account" is not camelCase or PascalCase (use "userAccount")`}}
}

test_suggestion_keeps_the_first_letter_case if {
	messages(["User-Account", "io.k8s.api.core.v1.Pod", "Error_RESPONSE", "HTTPServer_Error", "userIDs-list"]) == {
		`schema name "User-Account" is not camelCase or PascalCase (use "UserAccount")`,
		`schema name "io.k8s.api.core.v1.Pod" is not camelCase or PascalCase (use "ioK8sApiCoreV1Pod")`,
		`schema name "Error_RESPONSE" is not camelCase or PascalCase (use "ErrorResponse")`,
		`schema name "HTTPServer_Error" is not camelCase or PascalCase (use "HttpServerError")`,
		`schema name "userIDs-list" is not camelCase or PascalCase (use "userIdsList")`,
	}
}

test_no_suggestion_when_none_is_camel if {
	messages(["1stPlace"]) == {`schema name "1stPlace" is not camelCase or PascalCase`}
}

test_camel_and_pascal_pass if {
	count(rule.violations) == 0 with input as doc(["userAccount", "UserAccount", "HTTPError", "V2Pet"])
}

test_swagger_definitions if {
	vs := rule.violations with input as {"format": "swagger", "document": {"definitions": {"Pet": {}, "pet_list": {}}}}
	vs == {{"path": ["definitions", "pet_list"], "message": `schema name "pet_list" is not camelCase or PascalCase (use "petList")`}}
}

test_openapi_definitions_key_is_not_schemas if {
	count(rule.violations) == 0 with input as {"format": "openapi", "document": {"definitions": {"pet_list": {}}}}
}
