# METADATA
# title: Paginated responses hold the page's items in an array
# description: |
#   The success body of a paginated GET operation is an array, or an object
#   with an array property (`items`, `data`, `results`, … any name) that
#   holds the page's items. A paginated body without any array says nothing
#   about what a page contains, and generated clients cannot iterate it.
#
#   A GET operation is paginated when it takes a query parameter named
#   (without case) `page`, `page_size`, `pageSize`, `per_page`, `perPage`,
#   `page_token`, `pageToken` or `cursor`, or `limit` together with
#   `offset`, `after`, `before`, `starting_after` or `ending_before`
#   (`limit` alone often just caps a result). Its
#   body is the first `application/json` or `+json` media type with a
#   schema of the lowest 2xx response (else `2XX`).
#
#   To avoid false positives the rule reports only bodies it can read as an
#   object: the schema declares properties (itself or in `allOf` members,
#   local `$ref`s followed one level deep), has no `anyOf`/`oneOf`,
#   and none of its properties is, or may be, an array (`type: array`, a
#   type list with "array", `items` without a type, an `allOf`/`anyOf`/
#   `oneOf` member that is an array, or a `$ref` it cannot follow). Bodies
#   that are not JSON, have no schema or are free-form objects are not
#   reported.
#
#   ```yaml
#   # bad: GET /pets?page=2
#   schema:
#     type: object
#     properties:
#       pet: {$ref: "#/components/schemas/Pet"}
#   # good
#   schema:
#     type: object
#     properties:
#       items:
#         type: array
#         items: {$ref: "#/components/schemas/Pet"}
#   ```
# custom:
#   category: Pagination
#   maturity: Silver
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Return the page's items as an array: either the body itself, or an
#     array property such as `items` or `data` beside the paging fields.
package specgate.rules["page-response-items-array"]

import data.specgate.lib.health
import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some [op, page] in pagination.list_pages
	schema := page.body.schema
	pagination.object_page(schema)
	not pagination.has_array_property(schema)
	path := health.at(schema, page.body.schemaSource, "properties")
	msg := sprintf("%s has no array property holding the page's items", [pagination.describe(op, page.response, page.body)])
}
