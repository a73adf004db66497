package specgate.rules["info-license_test"]

import data.specgate.rules["info-license"] as rule

test_named_license if {
	count(rule.violations) == 0 with input as {"document": {"info": {"license": {"name": "MIT"}}}}
}

test_missing_license if {
	vs := rule.violations with input as {"document": {"info": {"title": "Pets"}}}
	vs == {{"path": ["info"], "message": "info has no license; state the terms under which the API may be used"}}
}

test_license_without_name if {
	vs := rule.violations with input as {"document": {"info": {"license": {"url": "https://example.com/terms"}}}}
	vs == {{"path": ["info", "license"], "message": "info.license has no name"}}
	count(rule.violations) == 1 with input as {"document": {"info": {"license": {"name": ""}}}}
}

test_missing_info_points_at_the_root if {
	vs := rule.violations with input as {"document": {}}
	vs == {{"path": [], "message": "the document has no info object, so the API states no license"}}
}
