package specgate.rules["page-default-value-defined_test"]

import data.specgate.rules["page-default-value-defined"] as rule

src := ["components", "parameters", "Page"]

param(schema) := {
	"name": "page", "in": "query", "required": false,
	"schema": schema, "schemaSource": array.concat(src, ["schema"]), "source": src,
}

run(p) := {"operations": [{"method": "get", "path": "/pets", "parameters": [p]}]}

test_default_passes if {
	count(rule.violations) == 0 with input as run(param({"type": "integer", "default": 1}))
}

test_missing_default_is_reported if {
	vs := rule.violations with input as run(param({"type": "integer", "minimum": 1}))
	vs == {{
		"path": ["components", "parameters", "Page", "schema"],
		"message": "query parameter \"page\" of GET /pets must declare a default value in its schema",
	}}
}

test_string_page_token_is_left_alone if {
	count(rule.violations) == 0 with input as run(param({"type": "string"}))
	count(rule.violations) == 0 with input as run(param({"type": ["string", "null"]}))
}
