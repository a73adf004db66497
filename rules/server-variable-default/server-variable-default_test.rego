package specgate.rules["server-variable-default_test"]

import data.specgate.rules["server-variable-default"] as rule

server(variables) := {"url": "https://{r}.x.org", "node": {"url": "https://{r}.x.org", "variables": variables}, "source": ["servers", 0]}

doc(servers) := {"format": "openapi", "servers": servers, "operations": [], "webhooks": [], "callbacks": []}

test_default_in_enum_passes if {
	count(rule.violations) == 0 with input as doc([server({"r": {"default": "eu", "enum": ["eu", "us"]}, "s": {"default": "x"}})])
}

test_default_outside_enum if {
	vs := rule.violations with input as doc([server({"r": {"default": "asia", "enum": ["eu", "us"]}})])
	vs == {{"path": ["servers", 0, "variables", "r", "default"], "message": `the default "asia" of server variable "r" of https://{r}.x.org is not one of its enum values (eu, us)`}}
}

test_empty_enum_and_missing_default if {
	vs := rule.violations with input as doc([server({"r": {"enum": []}})])
	vs == {
		{"path": ["servers", 0, "variables", "r"], "message": `server variable "r" of https://{r}.x.org has no default; clients need one to build the URL`},
		{"path": ["servers", 0, "variables", "r", "enum"], "message": `server variable "r" of https://{r}.x.org has an empty enum, which allows no value`},
	}
}
