package specgate.rules["proto-enum-zero-value-unspecified_test"]

import data.specgate.rules["proto-enum-zero-value-unspecified"] as rule

test_zero_names if {
	vs := rule.violations with input as {"proto": {
		"enums": [{"name": "Color", "fullName": "a.Color", "source": ["enums", "Color"]}, {"name": "Size", "fullName": "a.Size", "source": ["enums", "Size"]}],
		"enumValues": [
			{"name": "COLOR_RED", "enum": "Color", "enumFullName": "a.Color", "number": 0, "source": ["enums", "Color", "values", "COLOR_RED"]},
			{"name": "SIZE_SMALL", "enum": "Size", "enumFullName": "a.Size", "number": 1, "source": ["enums", "Size", "values", "SIZE_SMALL"]},
		],
	}}
	vs == {
		{"path": ["enums", "Color", "values", "COLOR_RED"], "message": "the zero value of enum a.Color is COLOR_RED; name it COLOR_UNSPECIFIED (an unset field reads as zero)"},
		{"path": ["enums", "Size"], "message": "enum a.Size has no zero value; add SIZE_UNSPECIFIED = 0 (an unset field reads as zero)"},
	}
}
