package specgate.rules["page-size-default_test"]

import data.specgate.rules["page-size-default"] as rule

src := ["paths", "/pets", "get", "parameters", 0]

param(schema) := {
	"name": "page_size", "in": "query", "required": false,
	"schema": schema, "schemaSource": array.concat(src, ["schema"]), "source": src,
}

run(p) := {"operations": [{"method": "get", "path": "/pets", "parameters": [p]}]}

test_default_passes if {
	count(rule.violations) == 0 with input as run(param({"type": "integer", "default": 20}))
}

test_missing_default_is_reported_on_the_schema if {
	vs := rule.violations with input as run(param({"type": "integer"}))
	vs == {{
		"path": array.concat(src, ["schema"]),
		"message": "query parameter \"page_size\" of GET /pets must declare a default value in its schema",
	}}
}

test_swagger_parameter_is_its_own_schema if {
	p := {"name": "pageSize", "in": "query", "required": false, "type": "integer", "source": src}
	sp := object.union(p, {"schema": p, "schemaSource": src})
	vs := rule.violations with input as run(sp)
	{v.path | some v in vs} == {src}
	count(rule.violations) == 0 with input as run(object.union(sp, {"schema": {"type": "integer", "default": 10}}))
}

test_parameter_without_schema_is_reported_on_the_parameter if {
	vs := rule.violations with input as run(object.union(param(null), {"schemaSource": []}))
	{v.path | some v in vs} == {src}
}
