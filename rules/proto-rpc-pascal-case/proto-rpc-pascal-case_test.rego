package specgate.rules["proto-rpc-pascal-case_test"]

import data.specgate.rules["proto-rpc-pascal-case"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"rpcs": [{"name": "get_book", "service": "S", "source": ["services", "S", "rpcs", "get_book"]}]}}
	vs == {{"path": ["services", "S", "rpcs", "get_book"], "message": `rpc get_book of service S is not PascalCase (use "GetBook")`}}
}
