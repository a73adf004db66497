package specgate.rules["asyncapi-server-no-trailing-slash_test"]

import data.specgate.rules["asyncapi-server-no-trailing-slash"] as rule

server(name, node) := {"source": ["servers", name], "node": node}

test_asyncapi2_url if {
	servers := [server("a", {"url": "ws://broker/"}), server("b", {"url": "ws://broker"})]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "servers": servers}
	vs1 == {{
		"path": ["servers", "a", "url"],
		"message": `the url "ws://broker/" of server "a" ends with a slash`,
	}}
}

test_asyncapi3_host_and_pathname if {
	servers := [server("a", {"host": "broker/", "pathname": "/vhost/"}), server("b", {"host": "broker", "pathname": "/"})]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "servers": servers}
	vs2 == {
		{"path": ["servers", "a", "host"], "message": `the host "broker/" of server "a" ends with a slash`},
		{"path": ["servers", "a", "pathname"], "message": `the pathname "/vhost/" of server "a" ends with a slash`},
	}
}
