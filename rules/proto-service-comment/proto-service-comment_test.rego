package specgate.rules["proto-service-comment_test"]

import data.specgate.rules["proto-service-comment"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"services": [{"name": "S", "fullName": "a.S", "comment": "", "source": ["services", "S"]}, {"name": "T", "fullName": "a.T", "comment": "T does things.", "source": ["services", "T"]}]}}
	vs == {{"path": ["services", "S"], "message": "service a.S has no comment"}}
}
