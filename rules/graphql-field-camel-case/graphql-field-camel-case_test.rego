package specgate.rules["graphql-field-camel-case_test"]

import data.specgate.rules["graphql-field-camel-case"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {"fields": [
		{"name": "created_at", "type": "Product", "source": ["types", "Product", "fields", "created_at"]},
		{"name": "id", "type": "Product", "source": ["types", "Product", "fields", "id"]},
	]}}
	vs == {{"path": ["types", "Product", "fields", "created_at"], "message": `field Product.created_at is not camelCase (use "createdAt")`}}
}
