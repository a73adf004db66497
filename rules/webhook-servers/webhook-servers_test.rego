package specgate.rules["webhook-servers_test"]

import data.specgate.rules["webhook-servers"] as rule

test_plain_webhooks_pass if {
	count(rule.violations) == 0 with input as {"document": {"webhooks": {"a": {"post": {}}}}, "webhooks": [{"node": {}, "source": ["webhooks", "a", "post"]}]}
}

test_servers if {
	vs := rule.violations with input as {
		"document": {"webhooks": {"a": {"servers": [], "post": {"servers": []}}}},
		"webhooks": [{"path": "a", "method": "post", "webhook": "a", "callback": "", "node": {"servers": []}, "source": ["webhooks", "a", "post"]}],
	}
	vs == {
		{"path": ["webhooks", "a", "servers"], "message": "webhook a declares servers; a webhook is sent to the consumer's URL, not to the API's servers"},
		{"path": ["webhooks", "a", "post", "servers"], "message": "POST webhook a declares servers; a webhook is sent to the consumer's URL, not to the API's servers"},
	}
}
