package specgate.rules["path-methods-order_test"]

import data.specgate.rules["path-methods-order"] as rule

item(path, methods) := {"path": path, "methods": methods, "source": ["paths", path]}

test_out_of_order if {
	vs := rule.violations with input as {"pathItems": [item("/pets", ["get", "post", "delete"]), item("/a", ["get", "put"])]}
		with specgate.object_keys as keys
	vs == {{"path": ["paths", "/pets", "get"], "message": "GET /pets is written after DELETE; list the operations of a path as get, head, post, put, patch, delete, options, query, trace"}}
}

keys("", ["paths", "/pets"]) := ["summary", "delete", "parameters", "get", "post", "x-internal"]

keys("", ["paths", "/a"]) := ["get", "put"]
