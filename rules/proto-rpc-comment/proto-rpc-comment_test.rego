package specgate.rules["proto-rpc-comment_test"]

import data.specgate.rules["proto-rpc-comment"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"rpcs": [{"name": "Get", "service": "S", "comment": "", "source": ["services", "S", "rpcs", "Get"]}, {"name": "List", "service": "S", "comment": "List lists.", "source": ["services", "S", "rpcs", "List"]}]}}
	vs == {{"path": ["services", "S", "rpcs", "Get"], "message": "rpc Get of service S has no comment"}}
}
