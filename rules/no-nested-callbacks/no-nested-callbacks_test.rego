package specgate.rules["no-nested-callbacks_test"]

import data.specgate.rules["no-nested-callbacks"] as rule

op(node, webhook, callback, source) := {"path": "{$url}", "method": "post", "webhook": webhook, "callback": callback, "node": node, "source": source}

test_plain_callbacks_pass if {
	count(rule.violations) == 0 with input as {"callbacks": [op({}, "", "onPaid", ["x"])], "webhooks": [op({}, "newPet", "", ["webhooks", "newPet", "post"])]}
}

test_callback_in_callback if {
	vs := rule.violations with input as {"callbacks": [op({"callbacks": {}}, "", "onPaid", ["cb"])], "webhooks": []}
	vs == {{"path": ["cb", "callbacks"], "message": "POST {$url} (callback onPaid) declares callbacks, but it is itself a request the API sends; declare callbacks on the operations of paths"}}
}

test_callback_in_webhook if {
	vs := rule.violations with input as {"callbacks": [], "webhooks": [op({"callbacks": {}}, "newPet", "", ["webhooks", "newPet", "post"])]}
	count(vs) == 1
}
