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
#   (the connection field takes the arguments).
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
	not _paginated(f)
}

_page_args := {"first", "last", "after", "before", "limit", "offset", "page", "pageSize", "perPage", "top", "skip", "cursor"}

_paginated(f) if {
	some a in f.args
	a in _page_args
}
