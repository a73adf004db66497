package specgate.rules["array-parameter-serialization_test"]

import data.specgate.rules["array-parameter-serialization"] as rule

param(name, where, extra, schema) := {"name": name, "in": where, "node": object.union({"name": name, "in": where, "schema": schema}, extra), "schema": schema, "source": ["components", "parameters", name]}

ints := {"type": "array", "items": {"type": "integer"}}

test_unserialized_arrays if {
	vs := rule.violations with input as {"document": {"components": {"schemas": {"Ids": ints}}}, "parameters": [
		param("ids", "query", {}, ints),
		param("tags", "query", {"style": "pipeDelimited"}, ints),
		param("ks", "query", {"style": "form"}, {"type": ["array", "null"], "items": {}}),
		param("xs", "cookie", {"explode": false}, {"$ref": "#/components/schemas/Ids"}),
		param("ok", "query", {"style": "form", "explode": false}, ints),
		param("id", "path", {}, ints),
		param("X-Ids", "header", {}, ints),
		param("limit", "query", {}, {"type": "integer"}),
		param("filter", "query", {"content": {"application/json": {}}}, ints),
	]}
	vs == {
		{"path": ["components", "parameters", "ids"], "message": "query parameter \"ids\" is an array but sets neither style nor explode, so it is sent as ids=1&ids=2 by default"},
		{"path": ["components", "parameters", "tags"], "message": "query parameter \"tags\" is an array but sets style pipeDelimited without explode, which then defaults to false"},
		{"path": ["components", "parameters", "ks"], "message": "query parameter \"ks\" is an array but sets style form without explode, which then defaults to true"},
		{"path": ["components", "parameters", "xs"], "message": "cookie parameter \"xs\" is an array but sets explode without style, which then defaults to form"},
	}
}
