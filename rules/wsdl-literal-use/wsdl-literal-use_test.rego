package specgate.rules["wsdl-literal-use_test"]

import data.specgate.rules["wsdl-literal-use"] as rule

test_reports_encoded_bodies_once_per_operation if {
	vs := rule.violations with input as {"wsdl": {"bindingOperations": [
		{"name": "getQuote", "binding": "QuoteSoap", "file": "", "source": ["bindings", "QuoteSoap", "operations", "getQuote"], "bodies": [
			{"in": "input", "element": "body", "use": "encoded"},
			{"in": "input", "element": "header", "use": "literal"},
			{"in": "output", "element": "body", "use": "encoded"},
		]},
		{"name": "ping", "binding": "QuoteSoap", "file": "", "source": ["bindings", "QuoteSoap", "operations", "ping"], "bodies": [{"in": "input", "element": "body", "use": "literal"}]},
		{"name": "get", "binding": "QuoteHttp", "file": "", "source": ["bindings", "QuoteHttp", "operations", "get"], "bodies": []},
	]}}
	vs == {{"path": ["bindings", "QuoteSoap", "operations", "getQuote"], "message": "operation getQuote of binding QuoteSoap uses encoded in its input's soap:body, output's soap:body; WS-I Basic Profile R2706 allows literal only"}}
}
