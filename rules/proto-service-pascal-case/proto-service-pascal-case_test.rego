package specgate.rules["proto-service-pascal-case_test"]

import data.specgate.rules["proto-service-pascal-case"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"services": [{"name": "book_service", "fullName": "a.book_service", "source": ["services", "book_service"]}]}}
	vs == {{"path": ["services", "book_service"], "message": `service a.book_service is not PascalCase (use "BookService")`}}
}
