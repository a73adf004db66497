package specgate.rules["tags-declared_test"]

import data.specgate.rules["tags-declared"] as rule

op := {"path": "/pets", "method": "get"}

msg := "the document declares no tags; list the groups of its operations, each with a description, under tags"

test_missing if {
	rule.violations == {{"path": [], "message": msg}} with input as {"document": {}, "tags": [], "operations": [op], "webhooks": [], "callbacks": []}
}

test_empty_list if {
	rule.violations == {{"path": ["tags"], "message": msg}} with input as {"document": {"tags": []}, "tags": [], "operations": [], "webhooks": [op], "callbacks": []}
}

test_declared_or_no_operations if {
	count(rule.violations) == 0 with input as {"document": {}, "tags": [{"name": "pets"}], "operations": [op], "webhooks": [], "callbacks": []}
	count(rule.violations) == 0 with input as {"document": {}, "tags": [], "operations": [], "webhooks": [], "callbacks": []}
}
