package specgate.rules["asyncapi-server-no-empty-variable_test"]

import data.specgate.rules["asyncapi-server-no-empty-variable"] as rule

server(name, node) := {"source": ["servers", name], "node": node}

test_asyncapi2_url if {
	servers := [server("a", {"url": "broker:{}"}), server("b", {"url": "broker:{port}"})]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "servers": servers}
	vs1 == {{
		"path": ["servers", "a", "url"],
		"message": `the url "broker:{}" of server "a" has an empty {} variable`,
	}}
}

test_asyncapi3_host_and_pathname if {
	servers := [server("a", {"host": "{}.broker", "pathname": "/{}"}), server("b", {"host": "broker", "url": "{}"})]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "servers": servers}
	vs2 == {
		{"path": ["servers", "a", "host"], "message": `the host "{}.broker" of server "a" has an empty {} variable`},
		{"path": ["servers", "a", "pathname"], "message": `the pathname "/{}" of server "a" has an empty {} variable`},
	}
}
