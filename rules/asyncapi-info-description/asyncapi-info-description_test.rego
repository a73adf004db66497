package specgate.rules["asyncapi-info-description_test"]

import data.specgate.rules["asyncapi-info-description"] as rule

test_description if {
	vs1 := rule.violations with input as {"document": {"info": {"description": "  "}}}
	vs1 == {{"path": ["info"], "message": "info has no description; say what the application does"}}
	vs2 := rule.violations with input as {"document": {}}
	vs2 == {{"path": [], "message": "the document has no info object, so it has no description"}}
	count(rule.violations) == 0 with input as {"document": {"info": {"description": "Accounts."}}}
}
