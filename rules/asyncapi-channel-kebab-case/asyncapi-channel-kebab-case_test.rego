package specgate.rules["asyncapi-channel-kebab-case_test"]

import data.specgate.rules["asyncapi-channel-kebab-case"] as rule

chan(id, node) := {"id": id, "source": ["channels", id], "node": node}

test_asyncapi2_channel_keys if {
	chans := [
		chan("users/signedUp", {}),
		chan("smartylighting.streetlights.1.0.event.{streetlightId}.lighting.measured", {}),
		chan("/", {}),
		chan("Orders:{orderId}:user_events", {}),
	]
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "channels": chans}
	vs1 == {
		{"path": ["channels", "users/signedUp"], "message": `channel "users/signedUp" is not kebab-case: "signedUp" should be "signed-up"`},
		{"path": ["channels", "Orders:{orderId}:user_events"], "message": `channel "Orders:{orderId}:user_events" is not kebab-case: "Orders" should be "orders", "user_events" should be "user-events"`},
	}
}

test_asyncapi3_addresses if {
	chans := [
		chan("a", {"address": "Users-{id}/x"}),
		chan("b", {"address": "users-{id}/x"}),
		chan("c", {"address": null}),
	]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "channels": chans}
	vs2 == {{
		"path": ["channels", "a", "address"],
		"message": `the address "Users-{id}/x" of channel "a" is not kebab-case: "Users-{id}"`,
	}}
}
