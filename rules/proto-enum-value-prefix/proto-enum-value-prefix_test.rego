package specgate.rules["proto-enum-value-prefix_test"]

import data.specgate.rules["proto-enum-value-prefix"] as rule

test_prefix if {
	vs := rule.violations with input as {"proto": {"enumValues": [
		{"name": "RED", "enum": "BookColor", "enumFullName": "a.BookColor", "source": ["enums", "BookColor", "values", "RED"]},
		{"name": "BOOK_COLOR_BLUE", "enum": "BookColor", "enumFullName": "a.BookColor", "source": ["enums", "BookColor", "values", "BOOK_COLOR_BLUE"]},
	]}}
	vs == {{"path": ["enums", "BookColor", "values", "RED"], "message": `value RED of enum a.BookColor does not start with BOOK_COLOR_ (use "BOOK_COLOR_RED")`}}
}

# The prefix is spelled as buf spells it: each case below was checked
# against buf lint's ENUM_VALUE_PREFIX.
test_prefix_spelling if {
	every enum, want in {
		"BookColor": "BOOK_COLOR_",
		"HTTP2Version": "HTTP2_VERSION_",
		"IPv4Type": "I_PV4_TYPE_",
		"Type3D": "TYPE3D_",
		"Sha256Hash": "SHA256_HASH_",
		"ABCKind": "ABC_KIND_",
		"OAuth2Flow": "O_AUTH2_FLOW_",
		"V1beta2Kind": "V1BETA2_KIND_",
		"lower_case": "LOWER_CASE_",
		"Two__Parts_": "TWO_PARTS_",
		"X": "X_",
	} {
		rule._prefix(enum) == want
	}
}

# A value prefixed with the enum's name as buf spells it or as its words
# read (googleapis' PRIVATE_IPV6_GOOGLE_ACCESS_UNSPECIFIED of enum
# PrivateIPv6GoogleAccess) passes; the message suggests buf's spelling.
test_prefix_digits_and_acronyms if {
	vs := rule.violations with input as {"proto": {"enumValues": [
		{"name": "I_PV4_TYPE_A", "enum": "IPv4Type", "enumFullName": "a.IPv4Type", "source": ["a"]},
		{"name": "IPV4_TYPE_B", "enum": "IPv4Type", "enumFullName": "a.IPv4Type", "source": ["b"]},
		{"name": "TYPE3D_A", "enum": "Type3D", "enumFullName": "a.Type3D", "source": ["c"]},
		{"name": "TYPE3_D_B", "enum": "Type3D", "enumFullName": "a.Type3D", "source": ["d"]},
		{"name": "TYPE_3D_C", "enum": "Type3D", "enumFullName": "a.Type3D", "source": ["e"]},
	]}}
	vs == {{"path": ["e"], "message": `value TYPE_3D_C of enum a.Type3D does not start with TYPE3D_ (use "TYPE3D_TYPE_3D_C")`}}
}

# googleapis' IPv6AccessType spells its zero value IPV6_ACCESS_TYPE_: the
# message suggests that prefix for its other values, not buf's I_PV6_.
test_suggests_the_enums_own_spelling if {
	vs := rule.violations with input as {"proto": {"enumValues": [
		{"name": "IPV6_ACCESS_TYPE_UNSPECIFIED", "enum": "IPv6AccessType", "enumFullName": "c.IPv6AccessType", "source": ["a"]},
		{"name": "INTERNAL", "enum": "IPv6AccessType", "enumFullName": "c.IPv6AccessType", "source": ["b"]},
		{"name": "EXTERNAL", "enum": "IPv6Other", "enumFullName": "c.IPv6Other", "source": ["c"]},
	]}}
	vs == {
		{"path": ["b"], "message": `value INTERNAL of enum c.IPv6AccessType does not start with IPV6_ACCESS_TYPE_ (use "IPV6_ACCESS_TYPE_INTERNAL")`},
		{"path": ["c"], "message": `value EXTERNAL of enum c.IPv6Other does not start with I_PV6_OTHER_ (use "I_PV6_OTHER_EXTERNAL")`},
	}
}
