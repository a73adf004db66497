package specgate.rules["encoding-combinations_test"]

import data.specgate.rules["encoding-combinations"] as rule

doc(media) := {"operations": [{"requestBody": {"content": [{"mediaType": "multipart/mixed", "node": media, "source": ["b"]}]}, "responses": []}], "webhooks": [], "callbacks": []}

test_one_way_passes if {
	count(rule.violations) == 0 with input as doc({"encoding": {"a": {}}})
	count(rule.violations) == 0 with input as doc({"prefixEncoding": [{}], "itemEncoding": {}})
}

test_both_ways if {
	vs := rule.violations with input as doc({"encoding": {"a": {}}, "itemEncoding": {}})
	vs == {{"path": ["b", "encoding"], "message": "media type multipart/mixed has encoding and itemEncoding; describe its parts either by name or by position"}}
}
