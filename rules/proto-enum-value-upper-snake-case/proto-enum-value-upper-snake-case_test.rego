package specgate.rules["proto-enum-value-upper-snake-case_test"]

import data.specgate.rules["proto-enum-value-upper-snake-case"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"enumValues": [{"name": "Red", "enum": "Color", "enumFullName": "a.Color", "source": ["enums", "Color", "values", "Red"]}, {"name": "COLOR_BLUE", "enum": "Color", "enumFullName": "a.Color", "source": ["enums", "Color", "values", "COLOR_BLUE"]}]}}
	vs == {{"path": ["enums", "Color", "values", "Red"], "message": `value Red of enum a.Color is not UPPER_SNAKE_CASE (use "RED")`}}
}
