# METADATA
# title: The page-size parameter has a maximum
# description: |
#   A page-size query parameter (`page_size`, `per_page`, `limit`…)
#   declares the largest page a client may ask for, with `maximum` (or
#   `exclusiveMaximum`) in its schema. Servers cap page sizes to bound the
#   cost of a request; without the cap in the description, clients find
#   it by trial, ask for `limit=100000` and get an error or, worse, a
#   silently shorter page they take for the last one.
#
#   The page-size parameter is a query parameter named `page_size`,
#   `pageSize`, `per_page` or `perPage`, compared without case, or `limit`
#   in a paginated GET operation (see `page-size-optional`). A parameter
#   whose schema is not a number is left to `page-size-positive-int`.
#   Parameters are taken from the operations under `paths`, path-item
#   parameters included; a parameter shared by several operations is
#   reported once, on its schema, naming the first operation that uses it
#   and how many others share it.
#
#   ```yaml
#   - name: per_page
#     in: query
#     schema: {type: integer, minimum: 1, default: 30}               # bad
#     schema: {type: integer, minimum: 1, maximum: 100, default: 30} # good
#   ```
# custom:
#   category: Pagination
#   maturity: Silver
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Add `maximum:` with the largest page size the server accepts to the
#     parameter's schema (on the parameter itself in Swagger 2.0).
package specgate.rules["page-size-maximum"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(pagination.schema_path(p), msg) if {
	some p in pagination.size_parameters
	_numeric(p.schema)
	not _bounded(p.schema)
	msg := sprintf("%s declares no maximum; say how large a page clients may ask for", [pagination.subject(p)])
}

_numeric(s) if pagination.is_integer(s)

_numeric(s) if s.type == "number"

_bounded(s) if is_number(s.maximum)

_bounded(s) if is_number(s.exclusiveMaximum)
