package specgate.rules["asyncapi-channel-no-trailing-slash_test"]

import data.specgate.rules["asyncapi-channel-no-trailing-slash"] as rule

chan(id, node) := {"id": id, "source": ["channels", id], "node": node}

test_asyncapi2_channel_keys if {
	chans := [chan("users/", {}), chan("/", {}), chan("users", {})]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "channels": chans}
	vs1 == {{
		"path": ["channels", "users/"],
		"message": `channel "users/" ends with a slash`,
	}}
}

test_asyncapi3_addresses if {
	chans := [chan("a", {"address": "users/"}), chan("root", {"address": "/"}), chan("b", {"address": null})]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "channels": chans}
	vs2 == {{
		"path": ["channels", "a", "address"],
		"message": `the address "users/" of channel "a" ends with a slash`,
	}}
}
