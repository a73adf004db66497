package specgate.rules["graphql-type-pascal-case_test"]

import data.specgate.rules["graphql-type-pascal-case"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {"types": [
		{"name": "product_variant", "kind": "OBJECT", "source": ["types", "product_variant"]},
		{"name": "createInput", "kind": "INPUT_OBJECT", "source": ["types", "createInput"]},
		{"name": "Product", "kind": "OBJECT", "source": ["types", "Product"]},
	]}}
	vs == {
		{"path": ["types", "product_variant"], "message": `object product_variant is not PascalCase (use "ProductVariant")`},
		{"path": ["types", "createInput"], "message": `input createInput is not PascalCase (use "CreateInput")`},
	}
}
