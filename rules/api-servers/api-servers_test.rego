package specgate.rules["api-servers_test"]

import data.specgate.rules["api-servers"] as rule

test_servers_pass if {
	count(rule.violations) == 0 with input as {"format": "openapi", "operations": [{}], "document": {"servers": [{"url": "/"}]}}
	count(rule.violations) == 0 with input as {"format": "swagger", "operations": [{}], "document": {"host": "api.x.org"}}
}

test_missing_and_empty if {
	rule.violations == {{"path": ["openapi"], "message": "the document has no servers; list the URL the API is served from"}} with input as {"format": "openapi", "operations": [{}], "document": {}}
	rule.violations == {{"path": ["servers"], "message": "servers is empty; list the URL the API is served from"}} with input as {"format": "openapi", "operations": [{}], "document": {"servers": []}}
	rule.violations == {{"path": ["swagger"], "message": "the document has no host; give the host (and basePath) the API is served from"}} with input as {"format": "swagger", "operations": [{}], "document": {"basePath": "/v1"}}
}

test_documents_without_operations_pass if {
	count(rule.violations) == 0 with input as {"format": "openapi", "operations": [], "document": {"webhooks": {}}}
}
