package specgate.rules["info-contact_test"]

import data.specgate.rules["info-contact"] as rule

test_any_contact_field_is_enough if {
	count(rule.violations) == 0 with input as {"document": {"info": {"contact": {"name": "Pets team"}}}}
	count(rule.violations) == 0 with input as {"document": {"info": {"contact": {"url": "https://example.com"}}}}
	count(rule.violations) == 0 with input as {"document": {"info": {"contact": {"email": "pets@example.com"}}}}
}

test_missing_contact if {
	vs := rule.violations with input as {"document": {"info": {"title": "Pets"}}}
	vs == {{"path": ["info"], "message": "info has no contact; name who to ask about the API (name, url or email)"}}
}

test_empty_contact if {
	vs := rule.violations with input as {"document": {"info": {"contact": {"name": " ", "x-team": "pets"}}}}
	vs == {{"path": ["info", "contact"], "message": "info.contact has no name, url or email"}}
}

test_contact_that_is_not_an_object if {
	vs := rule.violations with input as {"document": {"info": {"contact": "pets@example.com"}}}
	vs == {{"path": ["info", "contact"], "message": "info.contact has no name, url or email"}}
}

test_missing_info_points_at_the_root if {
	vs := rule.violations with input as {"document": {"swagger": "2.0"}}
	vs == {{"path": [], "message": "the document has no info object, so the API names no contact"}}
}
