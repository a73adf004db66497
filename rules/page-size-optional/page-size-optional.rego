# METADATA
# title: The page-size parameter is optional
# description: |
#   A page-size query parameter (`page_size`, `per_page`, `limit`) is optional
#   (`required: false` or no `required`): the server picks a sensible page size
#   when a client does not ask for one, so that simple clients need not know
#   about paging.
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
#     required: true
#     schema: {type: integer, minimum: 1, default: 20}
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
#     Remove `required: true` from the page-size parameter and declare the
#     size used when it is absent as its `default`.
package specgate.rules["page-size-optional"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(array.concat(p.source, ["required"]), msg) if {
	some p in pagination.size_parameters
	p.required
	msg := sprintf("%s must be optional (required: false)", [pagination.subject(p)])
}
