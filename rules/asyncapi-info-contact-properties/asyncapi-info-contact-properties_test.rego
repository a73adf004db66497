package specgate.rules["asyncapi-info-contact-properties_test"]

import data.specgate.rules["asyncapi-info-contact-properties"] as rule

test_properties if {
	vs1 := rule.violations with input as {"document": {"info": {"contact": {"name": "Team", "url": " "}}}}
	vs1 == {{"path": ["info", "contact"], "message": "info.contact has no url, email"}}
	count(rule.violations) == 0 with input as {"document": {"info": {"contact": {"name": "T", "url": "https://t", "email": "t@x"}}}}
	count(rule.violations) == 0 with input as {"document": {"info": {}}}
}
