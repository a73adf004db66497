package specgate.rules["wsdl-soap-version-consistent_test"]

import data.specgate.rules["wsdl-soap-version-consistent"] as rule

test_mixed_elements_and_addresses if {
	vs := rule.violations with input as {"wsdl": {
		"bindings": [{"name": "B12", "portType": "P", "soapVersion": "1.2", "file": "", "source": ["bindings", "B12"]}],
		"bindingOperations": [
			{"name": "get", "binding": "B12", "soapVersion": "1.2", "soapVersions": ["1.1", "1.2"], "file": "", "source": ["bindings", "B12", "operations", "get"]},
			{"name": "put", "binding": "B12", "soapVersion": "1.2", "soapVersions": ["1.2"], "file": "", "source": ["bindings", "B12", "operations", "put"]},
		],
		"ports": [
			{"name": "P12", "service": "S", "binding": "B12", "soapVersion": "1.1", "bindingSoapVersion": "1.2", "file": "", "source": ["services", "S", "ports", "P12"]},
			{"name": "Http", "service": "S", "binding": "H", "soapVersion": "", "bindingSoapVersion": "", "file": "", "source": ["services", "S", "ports", "Http"]},
		],
	}}
	vs == {
		{"path": ["bindings", "B12", "operations", "get"], "message": "operation get of the SOAP 1.2 binding B12 writes SOAP 1.1 elements (soap:)"},
		{"path": ["services", "S", "ports", "P12"], "message": "port P12 of service S has a SOAP 1.1 address (soap:address) for the SOAP 1.2 binding B12"},
	}
}

test_port_types_bound_in_different_versions if {
	vs := rule.violations with input as {"wsdl": {"bindingOperations": [], "ports": [], "bindings": [
		{"name": "A11", "portType": "A", "soapVersion": "1.1", "file": "", "source": ["bindings", "A11"]},
		{"name": "A12", "portType": "A", "soapVersion": "1.2", "file": "", "source": ["bindings", "A12"]},
		{"name": "B11", "portType": "B", "soapVersion": "1.1", "file": "", "source": ["bindings", "B11"]},
		{"name": "BHttp", "portType": "B", "soapVersion": "", "file": "", "source": ["bindings", "BHttp"]},
	]}}
	vs == {{"path": ["bindings", "B11", "soapVersion"], "message": "port type B is bound in SOAP 1.1 only, while other port types of the description are bound in SOAP 1.2 too"}}
}

test_both_versions_for_every_port_type_is_clean if {
	count(rule.violations) == 0 with input as {"wsdl": {"bindingOperations": [], "ports": [], "bindings": [
		{"name": "A11", "portType": "A", "soapVersion": "1.1", "file": "", "source": ["bindings", "A11"]},
		{"name": "A12", "portType": "A", "soapVersion": "1.2", "file": "", "source": ["bindings", "A12"]},
	]}}
}
