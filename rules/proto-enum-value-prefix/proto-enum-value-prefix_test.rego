package specgate.rules["proto-enum-value-prefix_test"]

import data.specgate.rules["proto-enum-value-prefix"] as rule

test_prefix if {
	vs := rule.violations with input as {"proto": {"enumValues": [
		{"name": "RED", "enum": "BookColor", "enumFullName": "a.BookColor", "source": ["enums", "BookColor", "values", "RED"]},
		{"name": "BOOK_COLOR_BLUE", "enum": "BookColor", "enumFullName": "a.BookColor", "source": ["enums", "BookColor", "values", "BOOK_COLOR_BLUE"]},
	]}}
	vs == {{"path": ["enums", "BookColor", "values", "RED"], "message": `value RED of enum a.BookColor does not start with BOOK_COLOR_ (use "BOOK_COLOR_RED")`}}
}
