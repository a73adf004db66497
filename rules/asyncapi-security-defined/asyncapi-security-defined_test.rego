package specgate.rules["asyncapi-security-defined_test"]

import data.specgate.rules["asyncapi-security-defined"] as rule

doc := {"components": {
	"securitySchemes": {"certs": {"type": "X509"}, "oauth": {"type": "oauth2"}},
	"operationTraits": {"secured": {"security": [{"tokens": []}]}},
}}

test_servers_operations_and_traits if {
	servers := [{"source": ["servers", "prod"], "node": {"security": [{"certs": []}, {"Oauth": ["read"], "saslScram": []}]}}]
	ops := [{"id": "onUser", "action": "subscribe", "channel": "users", "source": ["channels", "users", "subscribe"], "node": {"security": [{"oauth": []}], "traits": [{"security": [{"apiKey": []}]}]}}]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "servers": servers, "asyncOperations": ops, "messages": []}
	vs1 == {
		{"path": ["servers", "prod", "security", 1, "Oauth"], "message": `server "prod" requires security scheme "Oauth", which is not defined in components.securitySchemes (did you mean "oauth"?)`},
		{"path": ["servers", "prod", "security", 1, "saslScram"], "message": `server "prod" requires security scheme "saslScram", which is not defined in components.securitySchemes`},
		{"path": ["components", "operationTraits", "secured", "security", 0, "tokens"], "message": `operation trait "secured" requires security scheme "tokens", which is not defined in components.securitySchemes`},
		{"path": ["channels", "users", "subscribe", "traits", 0, "security", 0, "apiKey"], "message": `trait 0 of operation "onUser" requires security scheme "apiKey", which is not defined in components.securitySchemes`},
	}
}
