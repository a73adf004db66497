package specgate.rules["info-version_test"]

import data.specgate.rules["info-version"] as rule

test_string_version_passes if {
	count(rule.violations) == 0 with input as {"document": {"info": {"version": "1.0"}}}
}

test_number_version if {
	rule.violations == {{"path": ["info", "version"], "message": `info.version is a number, not a string; quote it ("1.2") so that tools read the version as written`}} with input as {"document": {"info": {"version": 1.2}}}
}

test_missing_and_empty if {
	rule.violations == {{"path": ["info"], "message": "info has no version; state the version of the API as a string"}} with input as {"document": {"info": {"title": "x"}}}
	rule.violations == {{"path": ["info", "version"], "message": "info.version is empty; state the version of the API"}} with input as {"document": {"info": {"version": " "}}}
}
