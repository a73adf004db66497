package specgate.rules["info-license-identifier-exclusive_test"]

import data.specgate.rules["info-license-identifier-exclusive"] as rule

test_both if {
	vs := rule.violations with input as {"document": {"info": {"license": {"name": "MIT", "identifier": "MIT", "url": "https://opensource.org/licenses/MIT"}}}}
	vs == {{"path": ["info", "license", "identifier"], "message": "info.license has both an identifier (MIT) and a url (https://opensource.org/licenses/MIT); OpenAPI allows only one of them"}}
}

test_one_of_them if {
	count(rule.violations) == 0 with input as {"document": {"info": {"license": {"name": "MIT", "identifier": "MIT"}}}}
	count(rule.violations) == 0 with input as {"document": {"info": {"license": {"name": "MIT", "url": "https://x.dev/l"}}}}
	count(rule.violations) == 0 with input as {"document": {"info": {}}}
}
