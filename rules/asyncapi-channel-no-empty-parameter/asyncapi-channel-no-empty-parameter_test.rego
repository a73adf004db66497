package specgate.rules["asyncapi-channel-no-empty-parameter_test"]

import data.specgate.rules["asyncapi-channel-no-empty-parameter"] as rule

test_asyncapi2_channel_keys if {
	chans := [
		{"id": "users/{}/signedup", "source": ["channels", "users/{}/signedup"], "node": {}},
		{"id": "users/{userId}", "source": ["channels", "users/{userId}"], "node": {}},
	]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "channels": chans}
	vs1 == {{
		"path": ["channels", "users/{}/signedup"],
		"message": `channel "users/{}/signedup" has an empty {} expression; name it after the parameter it stands for`,
	}}
}

test_asyncapi3_addresses if {
	chans := [
		{"id": "signup", "source": ["channels", "signup"], "node": {"address": "users.{}"}},
		{"id": "dynamic", "source": ["channels", "dynamic"], "node": {"address": null}},
		{"id": "named", "source": ["channels", "named"], "node": {"address": "users.{id}"}},
	]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "channels": chans}
	vs2 == {{
		"path": ["channels", "signup", "address"],
		"message": `the address "users.{}" of channel "signup" has an empty {} expression; name it after the parameter it stands for`,
	}}
}
