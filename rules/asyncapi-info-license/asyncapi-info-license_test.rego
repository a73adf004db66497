package specgate.rules["asyncapi-info-license_test"]

import data.specgate.rules["asyncapi-info-license"] as rule

test_license if {
	vs1 := rule.violations with input as {"document": {"info": {}}}
	vs1 == {{"path": ["info"], "message": "info has no license; state the terms of use"}}
	vs2 := rule.violations with input as {"document": {"asyncapi": "3.0.0"}}
	vs2 == {{"path": [], "message": "the document has no info object, so it states no license"}}
	count(rule.violations) == 0 with input as {"document": {"info": {"license": {"name": "MIT"}}}}
}
