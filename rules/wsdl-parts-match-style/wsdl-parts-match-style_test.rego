package specgate.rules["wsdl-parts-match-style_test"]

import data.specgate.rules["wsdl-parts-match-style"] as rule

_part(m, name, element, type) := {"name": name, "message": m, "element": element, "type": type, "file": "", "source": ["messages", m, "parts", name]}

_op(name, style, req, bodies) := {"name": name, "binding": "B", "style": style, "input": req, "bodies": bodies, "file": "", "source": ["bindings", "B", "operations", name]}

test_document_parts if {
	vs := rule.violations with input as {"wsdl": {
		"messages": [{"name": "Two", "file": "", "source": ["messages", "Two"]}],
		"bindingOperations": [
			_op("typed", "document", {"message": "Typed", "partsWritten": false, "parts": [_part("Typed", "isbn", "", "string")]}, []),
			_op("two", "document", {"message": "Two", "partsWritten": true, "parts": [_part("Two", "a", "A", ""), _part("Two", "b", "B", "")]}, []),
			_op("fine", "document", {"message": "Fine", "partsWritten": false, "parts": [_part("Fine", "parameters", "fine", "")]}, []),
			_op("encoded", "document", {"message": "Enc", "partsWritten": false, "parts": [_part("Enc", "x", "", "string")]}, [{"in": "input", "element": "body", "use": "encoded"}]),
		],
	}}
	vs == {
		{"path": ["messages", "Typed", "parts", "isbn"], "message": "part isbn of message Typed names a type, not an element, but the document-literal operation typed carries it in its input's soap:body (WS-I Basic Profile R2204)"},
		{"path": ["messages", "Two"], "message": "the document-literal operation two carries 2 parts of message Two (a, b) in its input's soap:body, which holds at most one (WS-I Basic Profile R2201)"},
	}
}

test_rpc_parts if {
	vs := rule.violations with input as {"wsdl": {"messages": [], "bindingOperations": [
		_op("quote", "rpc", {"message": "Q", "partsWritten": false, "parts": [_part("Q", "symbol", "", "string"), _part("Q", "body", "Quote", "")]}, []),
	]}}
	vs == {{"path": ["messages", "Q", "parts", "body"], "message": "part body of message Q names an element, not a type, but the rpc-literal operation quote carries it in its input's soap:body (WS-I Basic Profile R2203)"}}
}

# A part or message of an imported file is reported on the binding
# operation of the linted file, naming the file; a binding operation of an
# imported file is judged when that file is linted.
test_imported_parts if {
	imported := object.union(_part("Q", "symbol", "", "string"), {"file": "types.wsdl"})
	vs := rule.violations with input as {"wsdl": {
		"messages": [{"name": "Two", "file": "types.wsdl", "source": ["messages", "Two"]}],
		"bindingOperations": [
			_op("quote", "document", {"message": "Q", "partsWritten": false, "parts": [imported]}, []),
			_op("two", "document", {"message": "Two", "partsWritten": false, "parts": [_part("Two", "a", "A", ""), _part("Two", "b", "B", "")]}, []),
			object.union(_op("elsewhere", "document", {"message": "Q", "partsWritten": false, "parts": [_part("Q", "x", "", "string")]}, []), {"file": "binding.wsdl"}),
		],
	}}
	vs == {
		{"path": ["bindings", "B", "operations", "quote"], "message": "part symbol of message Q (types.wsdl) names a type, not an element, but the document-literal operation quote carries it in its input's soap:body (WS-I Basic Profile R2204)"},
		{"path": ["bindings", "B", "operations", "two"], "message": "the document-literal operation two carries 2 parts of message Two (types.wsdl) (a, b) in its input's soap:body, which holds at most one (WS-I Basic Profile R2210)"},
	}
}
