package specgate.rules["proto-field-lower-snake-case_test"]

import data.specgate.rules["proto-field-lower-snake-case"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"fields": [{"name": "displayName", "message": "a.B", "source": ["messages", "B", "fields", "displayName"]}, {"name": "page_size", "message": "a.B", "source": ["messages", "B", "fields", "page_size"]}]}}
	vs == {{"path": ["messages", "B", "fields", "displayName"], "message": `field displayName of a.B is not lower_snake_case (use "display_name")`}}
}
