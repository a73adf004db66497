package specgate.rules["component-names-valid_test"]

import data.specgate.rules["component-names-valid"] as rule

test_valid_names_pass if {
	count(rule.violations) == 0 with input as {"document": {"components": {"schemas": {"Pet": {}, "pet.v1_owner-2": {}}}}}
}

test_invalid_names if {
	vs := rule.violations with input as {"document": {"components": {"schemas": {"Pet Owner": {}}, "responses": {"Not/Found": {}}}}}
	vs == {
		{"path": ["components", "schemas", "Pet Owner"], "message": `schema name "Pet Owner" has characters other than letters, digits, '.', '-' and '_'`},
		{"path": ["components", "responses", "Not/Found"], "message": `response name "Not/Found" has characters other than letters, digits, '.', '-' and '_'`},
	}
}
