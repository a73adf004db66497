package specgate.rules["asyncapi-tags-unique_test"]

import data.specgate.rules["asyncapi-tags-unique"] as rule

test_document_and_server_lists if {
	doc := {"tags": [{"name": "a"}, {"name": "b"}, {"name": "a"}, {"name": "a"}], "components": {}}
	servers := [{"source": ["servers", "prod"], "node": {"tags": [{"name": "env"}, {"name": "env"}]}}]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "servers": servers, "channels": [], "asyncOperations": [], "messages": []}
	vs1 == {
		{"path": ["tags", 2], "message": `tag "a" of the document is already in its list (at 0)`},
		{"path": ["tags", 3], "message": `tag "a" of the document is already in its list (at 0)`},
		{"path": ["servers", "prod", "tags", 1], "message": `tag "env" of server "prod" is already in its list (at 0)`},
	}
}

test_asyncapi3_refs_and_messages if {
	doc := {"info": {"tags": [{"name": "users"}, {"$ref": "#/components/tags/users"}]}, "components": {"tags": {"users": {"name": "users"}}}}
	msgs := [{"name": "signedUp", "source": ["components", "messages", "signedUp"], "node": {"tags": [{"name": "x"}, {"name": "y"}]}}]
	chans := [{"id": "c", "source": ["channels", "c"], "node": {"tags": [{"name": "x"}, {"name": "x"}]}}]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": doc, "servers": [], "channels": chans, "asyncOperations": [], "messages": msgs}
	vs2 == {
		{"path": ["info", "tags", 1], "message": `tag "users" of the document is already in its list (at 0)`},
		{"path": ["channels", "c", "tags", 1], "message": `tag "x" of channel "c" is already in its list (at 0)`},
	}
}
