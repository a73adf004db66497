package specgate.rules["info-description_test"]

import data.specgate.rules["info-description"] as rule

test_described if {
	count(rule.violations) == 0 with input as {"document": {"info": {"title": "Pets", "description": "Adopt pets."}}}
}

test_missing_description if {
	vs := rule.violations with input as {"document": {"info": {"title": "Pets"}}}
	vs == {{"path": ["info"], "message": "info has no description; say what the API does and who it is for"}}
}

test_blank_or_malformed_description if {
	count(rule.violations) == 1 with input as {"document": {"info": {"description": " \n"}}}
	count(rule.violations) == 1 with input as {"document": {"info": {"description": 42}}}
	count(rule.violations) == 1 with input as {"document": {"info": null}}
}

test_missing_info_points_at_the_root if {
	vs := rule.violations with input as {"document": {"openapi": "3.1.0"}}
	vs == {{"path": [], "message": "the document has no info object, so the API has no description"}}
}
