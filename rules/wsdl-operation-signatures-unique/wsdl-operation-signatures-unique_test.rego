package specgate.rules["wsdl-operation-signatures-unique_test"]

import data.specgate.rules["wsdl-operation-signatures-unique"] as rule

_op(binding, name, style, elements) := {
	"name": name, "binding": binding, "style": style, "file": "", "source": ["bindings", binding, "operations", name],
	"input": {"message": name, "partsWritten": false, "parts": [{"name": "parameters", "element": e, "elementNamespace": "urn:lib"} | some e in elements]},
}

test_shared_body_elements if {
	vs := rule.violations with input as {"wsdl": {"bindingOperations": [
		_op("Soap", "getBook", "document", ["isbn"]),
		_op("Soap", "lendBook", "document", ["isbn"]),
		_op("Soap", "returnBook", "document", ["isbn"]),
		_op("Soap", "listBooks", "document", ["listBooks"]),
		_op("Soap", "ping", "document", []),
		_op("Soap", "pong", "document", []),
		_op("Rpc", "a", "rpc", ["isbn"]),
		_op("Rpc", "b", "rpc", ["isbn"]),
		_op("Soap12", "getBook", "document", ["isbn"]),
	]}}
	vs == {
		{"path": ["bindings", "Soap", "operations", "lendBook"], "message": "operation lendBook of binding Soap sends the element isbn in its soap:Body, as operation getBook does: a service cannot tell them apart (WS-I Basic Profile R2710)"},
		{"path": ["bindings", "Soap", "operations", "returnBook"], "message": "operation returnBook of binding Soap sends the element isbn in its soap:Body, as operation getBook does: a service cannot tell them apart (WS-I Basic Profile R2710)"},
		{"path": ["bindings", "Soap", "operations", "pong"], "message": "operation pong of binding Soap sends no element in its soap:Body, as operation ping does: a service cannot tell them apart (WS-I Basic Profile R2710)"},
	}
}

test_namespaces_tell_elements_apart if {
	other := object.union(_op("Soap", "lendBook", "document", []), {"input": {"message": "m", "partsWritten": false, "parts": [{"name": "p", "element": "isbn", "elementNamespace": "urn:other"}]}})
	count(rule.violations) == 0 with input as {"wsdl": {"bindingOperations": [_op("Soap", "getBook", "document", ["isbn"]), other]}}
}
