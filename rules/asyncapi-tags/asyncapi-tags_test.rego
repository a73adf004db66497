package specgate.rules["asyncapi-tags_test"]

import data.specgate.rules["asyncapi-tags"] as rule

v2 := ["asyncapi", "asyncapi2"]

v3 := ["asyncapi", "asyncapi3"]

test_asyncapi2 if {
	vs1 := rule.violations with input as {"formats": v2, "document": {"info": {}}}
	vs1 == {{"path": [], "message": "the document declares no tags; list them under tags"}}
	vs2 := rule.violations with input as {"formats": v2, "document": {"tags": []}}
	vs2 == {{"path": ["tags"], "message": "tags is empty; list the tags the document uses"}}
	count(rule.violations) == 0 with input as {"formats": v2, "document": {"tags": [{"name": "a"}]}}
}

test_asyncapi3 if {
	vs3 := rule.violations with input as {"formats": v3, "document": {"info": {}, "tags": [{"name": "a"}]}}
	vs3 == {{"path": ["info"], "message": "the document declares no tags; list them under info.tags"}}
	vs4 := rule.violations with input as {"formats": v3, "document": {"info": {"tags": []}}}
	vs4 == {{"path": ["info", "tags"], "message": "info.tags is empty; list the tags the document uses"}}
	count(rule.violations) == 0 with input as {"formats": v3, "document": {"info": {"tags": [{"$ref": "#/components/tags/a"}]}}}
}

test_asyncapi3_without_info if {
	vs := rule.violations with input as {"formats": v3, "document": {"asyncapi": "3.0.0"}}
	vs == {{"path": [], "message": "the document declares no tags; list them under info.tags"}}
}
