package specgate.rules["graphql-deprecation-reason_test"]

import data.specgate.rules["graphql-deprecation-reason"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {
		"fields": [
			{"name": "price", "type": "Product", "deprecated": true, "deprecationReason": "", "source": ["types", "Product", "fields", "price"]},
			{"name": "cost", "type": "Product", "deprecated": true, "deprecationReason": "Use priceV2.", "source": ["types", "Product", "fields", "cost"]},
		],
		"arguments": [{"name": "q", "field": "search", "type": "Query", "deprecated": true, "deprecationReason": "No longer supported", "source": ["types", "Query", "fields", "search", "args", "q"]}],
		"enumValues": [{"name": "OLD", "type": "Status", "deprecated": false, "deprecationReason": "", "source": ["types", "Status", "values", "OLD"]}],
	}}
	vs == {
		{"path": ["types", "Product", "fields", "price"], "message": "field Product.price is deprecated without a reason"},
		{"path": ["types", "Query", "fields", "search", "args", "q"], "message": "argument q of Query.search is deprecated without a reason"},
	}
}
