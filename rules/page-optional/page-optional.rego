# METADATA
# title: The page position parameter is optional
# description: |
#   A query parameter that says which page to return (`page`, `offset`,
#   `cursor`, `after`…) is optional (`required: false` or no `required`):
#   a client that does not ask for a page gets the first one, and a client
#   cannot know a cursor before its first request.
#
#   Page position parameters are query parameters named `page`, `offset`,
#   `skip`, `cursor`, `page_token` or `pageToken`, compared without case
#   (`Page` counts), and, in a paginated GET operation (see
#   `page-size-optional`), `after`, `before`, `starting_after` and
#   `ending_before`.
#
#   Parameters are taken from the operations under `paths`, path-item
#   parameters included. A parameter shared by several operations (a
#   component, or one declared on the path item) is reported once, at the
#   place it is written; the message names the first operation that uses it
#   and how many others share it.
#
#   ```yaml
#   # bad
#   - name: page
#     in: query
#     required: true
#     schema: {type: integer, minimum: 1, default: 20}
#   # good
#   - name: page
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
#     Remove `required: true` from the parameter; for a page number or an
#     offset, declare the first page as its `default`.
package specgate.rules["page-optional"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(array.concat(p.source, ["required"]), msg) if {
	some p in pagination.position_parameters
	p.required
	msg := sprintf("%s must be optional (required: false)", [pagination.subject(p)])
}
