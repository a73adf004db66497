package specgate.rules["graphql-argument-camel-case_test"]

import data.specgate.rules["graphql-argument-camel-case"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {"arguments": [
		{"name": "page_size", "field": "products", "type": "Query", "source": ["types", "Query", "fields", "products", "args", "page_size"]},
		{"name": "first", "field": "products", "type": "Query", "source": ["types", "Query", "fields", "products", "args", "first"]},
	]}}
	vs == {{"path": ["types", "Query", "fields", "products", "args", "page_size"], "message": `argument page_size of Query.products is not camelCase (use "pageSize")`}}
}
