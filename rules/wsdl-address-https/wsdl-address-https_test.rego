package specgate.rules["wsdl-address-https_test"]

import data.specgate.rules["wsdl-address-https"] as rule

_port(name, address) := {"name": name, "service": "S", "address": address, "file": "", "source": ["services", "S", "ports", name]}

test_plain_http if {
	vs := rule.violations with input as {"wsdl": {"ports": [
		_port("Plain", "http://library.acme.com/soap"),
		_port("Upper", "HTTP://library.acme.com/soap"),
		_port("Tls", "https://library.acme.com/soap"),
		_port("Local", "http://localhost:8080/soap"),
		_port("Jms", "jms:queue:orders"),
		_port("None", ""),
	]}}
	vs == {
		{"path": ["services", "S", "ports", "Plain"], "message": "port Plain of service S is addressed over plain HTTP (http://library.acme.com/soap)"},
		{"path": ["services", "S", "ports", "Upper"], "message": "port Upper of service S is addressed over plain HTTP (HTTP://library.acme.com/soap)"},
	}
}
