package specgate.rules["asyncapi-parameter-description_test"]

import data.specgate.rules["asyncapi-parameter-description"] as rule

test_inline_and_component_parameters if {
	doc := {"components": {"parameters": {"userId": {"schema": {}}, "orderId": {"description": "Order."}}}}
	chans := [{"id": "users/{userId}/{kind}/{x}", "source": ["channels", "users/{userId}/{kind}/{x}"], "node": {"parameters": {
		"userId": {"$ref": "#/components/parameters/userId"},
		"kind": {"description": "  "},
		"x": {"description": "Something."},
	}}}]
	vs1 := rule.violations with input as {"document": doc, "channels": chans}
	vs1 == {
		{"path": ["components", "parameters", "userId"], "message": `parameter "userId" of components.parameters has no description`},
		{"path": ["channels", "users/{userId}/{kind}/{x}", "parameters", "kind"], "message": `parameter "kind" of channel "users/{userId}/{kind}/{x}" has no description`},
	}
}
