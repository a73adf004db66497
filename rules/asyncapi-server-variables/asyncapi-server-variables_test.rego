package specgate.rules["asyncapi-server-variables_test"]

import data.specgate.rules["asyncapi-server-variables"] as rule

server(name, node) := {"source": ["servers", name], "node": node}

test_asyncapi2 if {
	servers := [
		server("prod", {"url": "{region}.example.org:{port}", "variables": {
			"region": {"enum": ["eu", "us"], "default": "asia"},
			"user": {"default": "x"},
		}}),
		server("ok", {"url": "{host}", "variables": {"host": {"$ref": "#/components/serverVariables/host"}}}),
		server("plain", {"url": "broker:1883"}),
	]
	doc := {"components": {"serverVariables": {"host": {"enum": ["a"], "default": "a"}}}}
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "servers": servers}
	vs1 == {
		{"path": ["servers", "prod", "url"], "message": `server "prod" uses {port} in its url, but defines no variable "port"`},
		{"path": ["servers", "prod", "variables", "user"], "message": `variable "user" of server "prod" is not used in its url`},
		{"path": ["servers", "prod", "variables", "region", "default"], "message": `the default "asia" of variable "region" of server "prod" is not one of its enum values`},
	}
}

test_asyncapi3_host_and_pathname if {
	servers := [server("prod", {"host": "{env}.example.org", "pathname": "/{vhost}", "variables": {"env": {"default": "prod"}}})]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": {}, "servers": servers}
	vs2 == {{
		"path": ["servers", "prod", "pathname"],
		"message": `server "prod" uses {vhost} in its pathname, but defines no variable "vhost"`,
	}}
}

test_asyncapi3_unused if {
	servers := [server("prod", {"host": "broker", "variables": {"env": {}}})]
	vs3 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": {}, "servers": servers}
	vs3 == {{
		"path": ["servers", "prod", "variables", "env"],
		"message": `variable "env" of server "prod" is not used in its host or pathname`,
	}}
}
