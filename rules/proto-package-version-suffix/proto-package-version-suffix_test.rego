package specgate.rules["proto-package-version-suffix_test"]

import data.specgate.rules["proto-package-version-suffix"] as rule

test_missing if {
	vs := rule.violations with input as {"proto": {"package": "acme.library", "packageSource": ["package"]}}
	vs == {{"path": ["package"], "message": "package acme.library does not end in a version such as acme.library.v1"}}
}

test_versions if {
	every p in ["a.v1", "a.v2beta1", "a.v1alpha", "a.v1p1beta1", "a.v1test"] {
		count(rule.violations) == 0 with input as {"proto": {"package": p, "packageSource": ["package"]}}
	}
}
