package specgate.rules["wsdl-port-type-documentation_test"]

import data.specgate.rules["wsdl-port-type-documentation"] as rule

test_reports_undocumented_port_types if {
	vs := rule.violations with input as {"wsdl": {"version": "1.1", "portTypes": [
		{"name": "Library", "documentation": "", "file": "", "source": ["portTypes", "Library"]},
		{"name": "Shelves", "documentation": "Shelves of books.", "file": "", "source": ["portTypes", "Shelves"]},
	]}}
	vs == {{"path": ["portTypes", "Library"], "message": "port type Library has no wsdl:documentation"}}
}

test_names_interfaces_in_wsdl2 if {
	vs := rule.violations with input as {"wsdl": {"version": "2.0", "portTypes": [{"name": "Books", "documentation": "", "file": "", "source": ["interfaces", "Books"]}]}}
	vs == {{"path": ["interfaces", "Books"], "message": "interface Books has no wsdl:documentation"}}
}
