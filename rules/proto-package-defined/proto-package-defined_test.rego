package specgate.rules["proto-package-defined_test"]

import data.specgate.rules["proto-package-defined"] as rule

test_missing if {
	vs := rule.violations with input as {"proto": {"file": "a.proto", "package": ""}}
	vs == {{"path": [], "message": "file a.proto declares no package"}}
}

test_present if {
	count(rule.violations) == 0 with input as {"proto": {"file": "a.proto", "package": "a.v1"}}
}
