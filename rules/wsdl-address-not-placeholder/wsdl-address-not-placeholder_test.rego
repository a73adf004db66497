package specgate.rules["wsdl-address-not-placeholder_test"]

import data.specgate.rules["wsdl-address-not-placeholder"] as rule

_port(name, address) := {"name": name, "service": "S", "address": address, "file": "", "source": ["services", "S", "ports", name]}

test_placeholders if {
	vs := rule.violations with input as {"wsdl": {"ports": [
		_port("Local", "http://localhost:8080/ws"),
		_port("Loop6", "http://[::1]:8080/ws"),
		_port("Dev", "http://api.localhost/ws"),
		_port("Example", "https://user@WS.Example.com/soap"),
		_port("JaxWs", "REPLACE_WITH_ACTUAL_URL"),
		_port("Real", "https://library.acme.com/soap"),
		_port("LookAlike", "https://myexample.com/soap"),
		_port("Empty", ""),
	]}}
	vs == {
		{"path": ["services", "S", "ports", "Local"], "message": "port Local of service S is addressed at http://localhost:8080/ws, the local machine"},
		{"path": ["services", "S", "ports", "Loop6"], "message": "port Loop6 of service S is addressed at http://[::1]:8080/ws, the local machine"},
		{"path": ["services", "S", "ports", "Dev"], "message": "port Dev of service S is addressed at http://api.localhost/ws, the local machine"},
		{"path": ["services", "S", "ports", "Example"], "message": "port Example of service S is addressed at https://user@WS.Example.com/soap, a host reserved for examples"},
		{"path": ["services", "S", "ports", "JaxWs"], "message": "port JaxWs of service S is addressed at REPLACE_WITH_ACTUAL_URL, a placeholder JAX-WS writes"},
	}
}
