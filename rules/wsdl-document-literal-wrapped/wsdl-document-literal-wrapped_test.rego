package specgate.rules["wsdl-document-literal-wrapped_test"]

import data.specgate.rules["wsdl-document-literal-wrapped"] as rule

_part(m, name, element, file) := {"name": name, "message": m, "element": element, "type": "", "file": file, "source": ["messages", m, "parts", name]}

_op(binding, name, style, parts) := {"name": name, "binding": binding, "style": style, "file": "", "bodies": [], "source": ["bindings", binding, "operations", name], "input": {"message": "M", "partsWritten": false, "parts": parts}}

test_request_elements if {
	vs := rule.violations with input as {"wsdl": {"bindingOperations": [
		_op("Soap11", "getBook", "document", [_part("GetBookRequest", "parameters", "bookQuery", "")]),
		_op("Soap12", "getBook", "document", [_part("GetBookRequest", "parameters", "bookQuery", "")]),
		_op("Soap11", "listBooks", "document", [_part("ListBooks", "parameters", "listBooks", "")]),
		_op("Soap11", "lend", "document", [_part("Lend", "parameters", "lending", "types.wsdl")]),
		_op("Soap11", "rpcOp", "rpc", [_part("Rpc", "a", "x", "")]),
		_op("Soap11", "two", "document", [_part("Two", "a", "a", ""), _part("Two", "b", "b", "")]),
	]}}
	vs == {
		{"path": ["messages", "GetBookRequest", "parts", "parameters"], "message": "the request of the document-literal operation getBook is the element bookQuery (part parameters of message GetBookRequest); an element named getBook makes the operation document/literal wrapped"},
		{"path": ["bindings", "Soap11", "operations", "lend"], "message": "the request of the document-literal operation lend is the element lending (part parameters of message Lend, types.wsdl); an element named lend makes the operation document/literal wrapped"},
	}
}
