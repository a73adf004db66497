package specgate.rules["proto-service-suffix_test"]

import data.specgate.rules["proto-service-suffix"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"services": [{"name": "Library", "fullName": "a.Library", "source": ["services", "Library"]}, {"name": "BookService", "fullName": "a.BookService", "source": ["services", "BookService"]}]}}
	vs == {{"path": ["services", "Library"], "message": "service a.Library should end in Service (LibraryService)"}}
}
