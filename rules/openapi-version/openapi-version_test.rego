package specgate.rules["openapi-version_test"]

import data.specgate.rules["openapi-version"] as rule

test_full_versions_pass if {
	count(rule.violations) == 0 with input as {"version": "3.1.0", "document": {"openapi": "3.1.0"}}
	count(rule.violations) == 0 with input as {"version": "3.2.0-rc1", "document": {"openapi": "3.2.0-rc1"}}
}

test_short_version if {
	vs := rule.violations with input as {"version": "3.1", "document": {"openapi": "3.1"}}
	vs == {{"path": ["openapi"], "message": `openapi is "3.1"; write the full version of the specification as a string, such as "3.1.0"`}}
}

test_number if {
	vs := rule.violations with input as {"version": "3.0", "document": {"openapi": 3.0}}
	count(vs) == 1
}
