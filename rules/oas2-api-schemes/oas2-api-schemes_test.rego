package specgate.rules["oas2-api-schemes_test"]

import data.specgate.rules["oas2-api-schemes"] as rule

test_schemes_pass if {
	count(rule.violations) == 0 with input as {"document": {"schemes": ["https"]}}
}

test_missing_and_empty if {
	rule.violations == {{"path": ["swagger"], "message": "the document has no schemes; list the protocols the API is served over, such as https"}} with input as {"document": {}}
	rule.violations == {{"path": ["schemes"], "message": "schemes is empty; list the protocols the API is served over, such as https"}} with input as {"document": {"schemes": []}}
}
