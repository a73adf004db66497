package specgate.rules["graphql-enum-value-upper-case_test"]

import data.specgate.rules["graphql-enum-value-upper-case"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {"enumValues": [
		{"name": "inStock", "type": "Status", "source": ["types", "Status", "values", "inStock"]},
		{"name": "SOLD_OUT", "type": "Status", "source": ["types", "Status", "values", "SOLD_OUT"]},
	]}}
	vs == {{"path": ["types", "Status", "values", "inStock"], "message": `value inStock of enum Status is not UPPER_SNAKE_CASE (use "IN_STOCK")`}}
}
