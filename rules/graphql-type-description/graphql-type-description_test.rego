package specgate.rules["graphql-type-description_test"]

import data.specgate.rules["graphql-type-description"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {"types": [
		{"name": "Product", "kind": "OBJECT", "description": "", "root": false, "source": ["types", "Product"]},
		{"name": "Query", "kind": "OBJECT", "description": "", "root": true, "source": ["types", "Query"]},
		{"name": "Color", "kind": "ENUM", "description": "A color.", "root": false, "source": ["types", "Color"]},
	]}}
	vs == {{"path": ["types", "Product"], "message": "object Product has no description"}}
}
