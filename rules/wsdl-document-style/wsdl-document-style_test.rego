package specgate.rules["wsdl-document-style_test"]

import data.specgate.rules["wsdl-document-style"] as rule

_b(name) := {"name": name, "file": "", "source": ["bindings", name]}

_op(binding, name, style) := {"name": name, "binding": binding, "style": style}

test_rpc_and_mixed_bindings if {
	vs := rule.violations with input as {"wsdl": {
		"bindings": [_b("Rpc"), _b("Mixed"), _b("Doc"), _b("Http")],
		"bindingOperations": [
			_op("Rpc", "getQuote", "rpc"), _op("Rpc", "getName", "rpc"),
			_op("Mixed", "a", "document"), _op("Mixed", "b", "rpc"),
			_op("Doc", "a", "document"),
			_op("Http", "a", ""),
		],
	}}
	vs == {
		{"path": ["bindings", "Rpc"], "message": "binding Rpc is rpc style (getName, getQuote); prefer document/literal, whose messages the description's schema validates"},
		{"path": ["bindings", "Mixed"], "message": "binding Mixed mixes document operations (a) and rpc operations (b); WS-I Basic Profile R2705 requires one style per binding"},
	}
}
