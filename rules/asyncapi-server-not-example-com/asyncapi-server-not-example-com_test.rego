package specgate.rules["asyncapi-server-not-example-com_test"]

import data.specgate.rules["asyncapi-server-not-example-com"] as rule

server(name, node) := {"source": ["servers", name], "node": node}

test_asyncapi2_urls if {
	servers := [
		server("a", {"url": "mqtt://user@broker.example.com:1883/x"}),
		server("b", {"url": "example.org:9092"}),
		server("c", {"url": "myexample.com"}),
		server("d", {"url": "broker.example.com.mycompany.io"}),
	]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "servers": servers}
	vs1 == {
		{"path": ["servers", "a", "url"], "message": `server "a" points at the placeholder host "broker.example.com"`},
		{"path": ["servers", "b", "url"], "message": `server "b" points at the placeholder host "example.org"`},
	}
}

test_asyncapi3_host if {
	servers := [server("a", {"host": "Example.NET:5672", "pathname": "/example.com"}), server("b", {"host": "rabbit.mycompany.com"})]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "servers": servers}
	vs2 == {{
		"path": ["servers", "a", "host"],
		"message": `server "a" points at the placeholder host "Example.NET"`,
	}}
}
