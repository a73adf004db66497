# METADATA
# title: Lists of objects are paginated
# description: |
#   A field that returns a list of objects (of an object, interface or union
#   type) takes pagination arguments: `first`/`after` or `last`/`before`
#   (cursor connections), or `limit`/`offset`, `page`/`pageSize`,
#   `perPage`, `top`/`skip`. An unbounded list grows with the data: one
#   query then returns everything, its cost and size bounded by nothing,
#   which hurts clients and the server alike. Lists of scalars and enums are
#   not checked, nor lists that are a connection's own `edges` or `nodes`
#   (the connection field takes the arguments), nor the lists of a
#   mutation's payload: a type that only mutations return, whose lists hold
#   what the mutation changed, bounded by the client's input.
#
#   ```graphql
#   type Query {
#     products: [Product!]!                                  # bad
#     products(first: Int, after: String): ProductConnection!  # good
#   }
#   ```
# custom:
#   category: Pagination
#   maturity: Gold
#   severity: warn
#   family: pagination
#   formats: [graphql]
#   howToFix: |
#     Return a connection (`ProductConnection` with `edges`, `nodes` and
#     `pageInfo`) taking `first` and `after`, or add `limit` and `offset`
#     arguments with a documented maximum.
package specgate.rules["graphql-list-pagination"]

import data.specgate.lib.util

violations contains util.violation(f.source, sprintf("field %s.%s returns a list of %s without pagination arguments (first/after, limit/offset, …)", [f.type, f.name, f.named])) if {
	some f in input.graphql.fields
	f.typeKind in {"OBJECT", "INTERFACE"}
	f.list
	f.namedKind in {"OBJECT", "INTERFACE", "UNION"}
	not f.name in {"edges", "nodes"}
	not f.type in _payloads
	not _paginated(f)
}

# _payloads are the types only a mutation returns (GitHub's
# AddReactionPayload, ApproveDeploymentsPayload): their lists are what the
# mutation changed, bounded by the input the client sent, and are not paged
# through. A type that other fields also return (`createUser: User`) is not
# one.
_payloads contains f.named if {
	input.graphql.mutation != ""
	some f in input.graphql.fields
	f.type == input.graphql.mutation
	not _returned_elsewhere(f.named)
}

_returned_elsewhere(name) if {
	some g in input.graphql.fields
	g.named == name
	g.type != input.graphql.mutation
}

_page_args := {"first", "last", "after", "before", "limit", "offset", "page", "pageSize", "perPage", "top", "skip", "cursor"}

_paginated(f) if {
	some a in f.args
	a in _page_args
}
