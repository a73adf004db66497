# METADATA
# title: The page-size parameter has a default
# description: |
#   A page-size query parameter (`page_size`, `per_page`, `limit`) declares the
#   page size a client gets when it does not send one, as `default` in its
#   schema (on the parameter itself in Swagger 2.0).
#
#   The page-size parameter is a query parameter named `page_size`,
#   `pageSize`, `per_page` or `perPage`, compared without case (`PageSize`
#   counts), or `limit` in a paginated GET operation (one that also takes
#   `offset`, `after`, `before`, `starting_after` or `ending_before`, or a
#   page, page-size or cursor parameter).
#
#   Parameters are taken from the operations under `paths`, path-item
#   parameters included. A parameter shared by several operations (a
#   component, or one declared on the path item) is reported once, at the
#   place it is written; the message names the first operation that uses it
#   and how many others share it.
#
#   ```yaml
#   # bad
#   - name: page_size
#     in: query
#     schema: {type: integer, minimum: 1}
#   # good
#   - name: page_size
#     in: query
#     schema: {type: integer, minimum: 1, default: 20}
#   ```
# custom:
#   category: Pagination
#   maturity: Silver
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Add `default:` with the server's page size to the schema of the
#     page-size parameter.
package specgate.rules["page-size-default"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(pagination.schema_path(p), msg) if {
	some p in pagination.size_parameters
	not _has_default(p.schema)
	msg := sprintf("%s must declare a default value in its schema", [pagination.subject(p)])
}

_has_default(s) if "default" in object.keys(s)
