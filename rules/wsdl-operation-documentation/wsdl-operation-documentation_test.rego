package specgate.rules["wsdl-operation-documentation_test"]

import data.specgate.rules["wsdl-operation-documentation"] as rule

test_reports_undocumented_operations_of_the_linted_file if {
	vs := rule.violations with input as {"wsdl": {"version": "1.1", "operations": [
		{"name": "getBook", "portType": "Library", "documentation": "", "file": "", "source": ["portTypes", "Library", "operations", "getBook"]},
		{"name": "listBooks", "portType": "Library", "documentation": " \n ", "file": "", "source": ["portTypes", "Library", "operations", "listBooks"]},
		{"name": "reindex", "portType": "Admin", "documentation": "", "file": "admin.wsdl", "source": ["portTypes", "Admin", "operations", "reindex"]},
		{"name": "addBook", "portType": "Library", "documentation": "Adds a book.", "file": "", "source": ["portTypes", "Library", "operations", "addBook"]},
	]}}
	vs == {
		{"path": ["portTypes", "Library", "operations", "getBook"], "message": "operation getBook of port type Library has no wsdl:documentation"},
		{"path": ["portTypes", "Library", "operations", "listBooks"], "message": "operation listBooks of port type Library has no wsdl:documentation"},
	}
}

test_names_interfaces_in_wsdl2 if {
	vs := rule.violations with input as {"wsdl": {"version": "2.0", "operations": [{"name": "get", "portType": "Books", "documentation": "", "file": "", "source": ["interfaces", "Books", "operations", "get"]}]}}
	vs == {{"path": ["interfaces", "Books", "operations", "get"], "message": "operation get of interface Books has no wsdl:documentation"}}
}
