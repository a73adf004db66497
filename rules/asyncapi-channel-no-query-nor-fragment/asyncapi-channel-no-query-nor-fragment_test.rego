package specgate.rules["asyncapi-channel-no-query-nor-fragment_test"]

import data.specgate.rules["asyncapi-channel-no-query-nor-fragment"] as rule

test_asyncapi2_channel_keys if {
	chans := [
		{"id": "users?region=eu#top", "source": ["channels", "users?region=eu#top"], "node": {}},
		{"id": "users/{id}", "source": ["channels", "users/{id}"], "node": {}},
	]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "channels": chans}
	vs1 == {
		{"path": ["channels", "users?region=eu#top"], "message": `channel "users?region=eu#top" contains "?": a query is not allowed in a channel address; use bindings`},
		{"path": ["channels", "users?region=eu#top"], "message": `channel "users?region=eu#top" contains "#": a fragment is not allowed in a channel address; use bindings`},
	}
}

test_asyncapi3_addresses if {
	chans := [
		{"id": "events", "source": ["channels", "events"], "node": {"address": "events#all"}},
		{"id": "plain", "source": ["channels", "plain"], "node": {"address": "events.all"}},
		{"id": "unknown", "source": ["channels", "unknown"], "node": {}},
	]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "channels": chans}
	vs2 == {{
		"path": ["channels", "events", "address"],
		"message": `the address "events#all" of channel "events" contains "#": a fragment is not allowed in a channel address; use bindings`,
	}}
}
