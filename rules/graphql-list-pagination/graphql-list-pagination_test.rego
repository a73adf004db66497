package specgate.rules["graphql-list-pagination_test"]

import data.specgate.rules["graphql-list-pagination"] as rule

test_reports if {
	vs := rule.violations with input as {"graphql": {"fields": [
		{"name": "products", "type": "Query", "typeKind": "OBJECT", "list": true, "named": "Product", "namedKind": "OBJECT", "args": [], "source": ["types", "Query", "fields", "products"]},
		{"name": "paged", "type": "Query", "typeKind": "OBJECT", "list": true, "named": "Product", "namedKind": "OBJECT", "args": ["first", "after"], "source": ["types", "Query", "fields", "paged"]},
		{"name": "tags", "type": "Product", "typeKind": "OBJECT", "list": true, "named": "String", "namedKind": "SCALAR", "args": [], "source": ["types", "Product", "fields", "tags"]},
		{"name": "edges", "type": "ProductConnection", "typeKind": "OBJECT", "list": true, "named": "ProductEdge", "namedKind": "OBJECT", "args": [], "source": ["types", "ProductConnection", "fields", "edges"]},
		{"name": "items", "type": "Filter", "typeKind": "INPUT_OBJECT", "list": true, "named": "Item", "namedKind": "INPUT_OBJECT", "args": [], "source": ["types", "Filter", "inputFields", "items"]},
	]}}
	vs == {{"path": ["types", "Query", "fields", "products"], "message": "field Query.products returns a list of Product without pagination arguments (first/after, limit/offset, …)"}}
}

# GitHub's ApproveDeploymentsPayload.deployments lists what the mutation
# approved; a type that a query also returns stays checked.
field(t, n, named) := {"name": n, "type": t, "typeKind": "OBJECT", "list": false, "named": named, "namedKind": "OBJECT", "args": [], "source": ["types", t, "fields", n]}

list(t, n, named) := object.union(field(t, n, named), {"list": true})

test_mutation_payloads_are_left_alone if {
	vs := rule.violations with input as {"graphql": {"mutation": "Mutation", "fields": [
		field("Mutation", "approveDeployments", "ApproveDeploymentsPayload"),
		list("ApproveDeploymentsPayload", "deployments", "Deployment"),
		field("Mutation", "createUser", "User"),
		field("Query", "viewer", "User"),
		list("User", "followers", "User"),
	]}}
	{v.path | some v in vs} == {["types", "User", "fields", "followers"]}
}
