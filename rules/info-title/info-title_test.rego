package specgate.rules["info-title_test"]

import data.specgate.rules["info-title"] as rule

test_titled if {
	count(rule.violations) == 0 with input as {"document": {"info": {"title": "Pets"}}}
}

test_missing_info if {
	rule.violations == {{"path": [], "message": "the document has no info object, so the API has no title"}} with input as {"document": {"openapi": "3.1.0"}}
}

test_missing_title if {
	rule.violations == {{"path": ["info"], "message": "info has no title; name the API"}} with input as {"document": {"info": {"version": "1"}}}
}

test_blank_or_not_text if {
	rule.violations == {{"path": ["info", "title"], "message": "info.title is blank; name the API"}} with input as {"document": {"info": {"title": "  "}}}
	rule.violations == {{"path": ["info", "title"], "message": "info.title is blank; name the API"}} with input as {"document": {"info": {"title": 42}}}
}
