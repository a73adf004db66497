package specgate.rules["asyncapi-info-license-url_test"]

import data.specgate.rules["asyncapi-info-license-url"] as rule

test_license_url if {
	vs1 := rule.violations with input as {"document": {"info": {"license": {"name": "Internal", "url": " "}}}}
	vs1 == {{"path": ["info", "license"], "message": `the license "Internal" has no url; link to its text`}}
	count(rule.violations) == 0 with input as {"document": {"info": {"license": {"name": "MIT", "url": "https://opensource.org/license/mit"}}}}
	count(rule.violations) == 0 with input as {"document": {"info": {}}}
}
