package specgate.rules["no-trace-operation_test"]

import data.specgate.rules["no-trace-operation"] as rule

op(method) := {"path": "/pets", "method": method, "webhook": "", "callback": "", "source": ["paths", "/pets", method]}

test_trace_is_reported if {
	vs := rule.violations with input as {"operations": [op("get"), op("trace")]}
	vs == {{"path": ["paths", "/pets", "trace"], "message": "TRACE /pets is described; TRACE echoes requests, credentials included, back to the caller"}}
}
