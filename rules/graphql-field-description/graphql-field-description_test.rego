package specgate.rules["graphql-field-description_test"]

import data.specgate.rules["graphql-field-description"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {"fields": [
		{"name": "sku", "type": "Product", "description": "", "source": ["types", "Product", "fields", "sku"]},
		{"name": "id", "type": "Product", "description": "The id.", "source": ["types", "Product", "fields", "id"]},
	]}}
	vs == {{"path": ["types", "Product", "fields", "sku"], "message": "field Product.sku has no description"}}
}
