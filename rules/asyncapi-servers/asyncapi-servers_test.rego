package specgate.rules["asyncapi-servers_test"]

import data.specgate.rules["asyncapi-servers"] as rule

test_missing if {
	vs1 := rule.violations with input as {"document": {"asyncapi": "3.0.0"}}
	vs1 == {{"path": [], "message": "the document defines no servers; name the brokers applications connect to"}}
}

test_empty if {
	vs2 := rule.violations with input as {"document": {"servers": {}}}
	vs2 == {{"path": ["servers"], "message": "servers is empty; name the brokers applications connect to"}}
}

test_present if {
	count(rule.violations) == 0 with input as {"document": {"servers": {"prod": {"host": "h", "protocol": "kafka"}}}}
}
