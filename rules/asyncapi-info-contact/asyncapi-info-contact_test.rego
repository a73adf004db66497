package specgate.rules["asyncapi-info-contact_test"]

import data.specgate.rules["asyncapi-info-contact"] as rule

test_contact if {
	vs1 := rule.violations with input as {"document": {}}
	vs1 == {{"path": [], "message": "the document has no info object, so it names no contact"}}
	vs2 := rule.violations with input as {"document": {"info": {"title": "x"}}}
	vs2 == {{"path": ["info"], "message": "info has no contact; name who owns the application"}}
	count(rule.violations) == 0 with input as {"document": {"info": {"contact": {"name": "Team"}}}}
}
