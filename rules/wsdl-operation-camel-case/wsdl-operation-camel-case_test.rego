package specgate.rules["wsdl-operation-camel-case_test"]

import data.specgate.rules["wsdl-operation-camel-case"] as rule

_op(name) := {"name": name, "portType": "Library", "file": "", "source": ["portTypes", "Library", "operations", name]}

test_reports_the_minority_case_and_non_camel_names if {
	vs := rule.violations with input as {"wsdl": {"operations": [_op("getBook"), _op("listBooks"), _op("ReturnBook"), _op("add_book")]}}
	vs == {
		{"path": ["portTypes", "Library", "operations", "ReturnBook"], "message": "operation ReturnBook of port type Library starts with an upper-case letter while the description's operations are lowerCamelCase (2 of 3; use returnBook)"},
		{"path": ["portTypes", "Library", "operations", "add_book"], "message": "operation add_book of port type Library is not camel case (use addBook)"},
	}
}

test_upper_case_majority if {
	vs := rule.violations with input as {"wsdl": {"operations": [_op("GetBook"), _op("ListBooks"), _op("returnBook"), _op("Add-Book")]}}
	vs == {
		{"path": ["portTypes", "Library", "operations", "returnBook"], "message": "operation returnBook of port type Library starts with a lower-case letter while the description's operations are UpperCamelCase (2 of 3; use ReturnBook)"},
		{"path": ["portTypes", "Library", "operations", "Add-Book"], "message": "operation Add-Book of port type Library is not camel case (use AddBook)"},
	}
}

test_tie_prefers_lower_camel_case if {
	vs := rule.violations with input as {"wsdl": {"operations": [_op("getBook"), _op("ListBooks")]}}
	vs == {{"path": ["portTypes", "Library", "operations", "ListBooks"], "message": "operation ListBooks of port type Library starts with an upper-case letter while the description's operations are lowerCamelCase (1 of 2; use listBooks)"}}
}

test_one_case_throughout_is_clean if {
	count(rule.violations) == 0 with input as {"wsdl": {"operations": [_op("GetBook"), _op("ListBooks"), _op("GetBook2")]}}
}
