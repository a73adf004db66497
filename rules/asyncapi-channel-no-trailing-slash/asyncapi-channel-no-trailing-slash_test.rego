package specgate.rules["asyncapi-channel-no-trailing-slash_test"]

import data.specgate.rules["asyncapi-channel-no-trailing-slash"] as rule

chan(id, node) := {"id": id, "source": ["channels", id], "node": node}

test_asyncapi2_channel_keys if {
	chans := [chan("users/", {}), chan("/", {}), chan("users", {})]
	rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "channels": chans} == {{
		"path": ["channels", "users/"],
		"message": `channel "users/" ends with a slash`,
	}}
}

test_asyncapi3_addresses if {
	chans := [chan("a", {"address": "users/"}), chan("root", {"address": "/"}), chan("b", {"address": null})]
	rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "channels": chans} == {{
		"path": ["channels", "a", "address"],
		"message": `the address "users/" of channel "a" ends with a slash`,
	}}
}
