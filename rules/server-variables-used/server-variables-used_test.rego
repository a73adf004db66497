package specgate.rules["server-variables-used_test"]

import data.specgate.rules["server-variables-used"] as rule

server(url, variables) := {"url": url, "node": {"url": url, "variables": variables}, "source": ["servers", 0]}

doc(servers) := {"format": "openapi", "servers": servers, "operations": [], "webhooks": [], "callbacks": []}

test_used_variables_pass if {
	count(rule.violations) == 0 with input as doc([server("https://{r}.x.org", {"r": {"default": "eu"}})])
}

test_unused_variable if {
	vs := rule.violations with input as doc([server("https://api.x.org/v1", {"version": {"default": "v1"}})])
	vs == {{"path": ["servers", 0, "variables", "version"], "message": `server variable "version" is not used in the URL https://api.x.org/v1`}}
}
