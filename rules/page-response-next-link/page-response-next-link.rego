# METADATA
# title: Paginated responses say how to get the next page
# description: |
#   The success response of a paginated GET operation tells the client how
#   to get the next page and whether there is one: a `Link` response header
#   (RFC 8288, `rel="next"`), or a body property such as `next`,
#   `next_cursor`, `nextPageToken`, `has_more` or `links`. Without one,
#   clients guess from a short or empty page and page past the end.
#
#   A GET operation is paginated when it takes a query parameter named
#   (without case) `page`, `page_size`, `pageSize`, `per_page`, `perPage`,
#   `page_token`, `pageToken` or `cursor`, or `limit` together with
#   `offset`, `after`, `before`, `starting_after` or `ending_before`.
#   Its body is the first `application/json` or `+json` media type with a
#   schema of the lowest 2xx response (else `2XX`).
#
#   The response passes when it declares a `Link` header (any case), or when its
#   body has a property whose name, in lower case without `_ - . @ $`, contains
#   `next` or is `links`, `link`, `hasmore`, `cursor`, `cursors`, `continue` or
#   `continuationtoken` — at the top level or inside a top-level object property
#   (`meta`, `pagination`, `response_metadata`, …; local `$ref`s followed,
#   `allOf` members merged). A total count alone does not pass: the client would
#   have to compute the next page. The rule reports a bare array body without a
#   `Link` header, and an object body it can read (declared properties, no
#   `anyOf`/`oneOf`, every `$ref` followed) with neither; bodies that are not
#   JSON or have no schema are not reported.
#
#   ```yaml
#   # bad: GET /pets?limit=10&offset=20
#   schema:
#     type: object
#     properties:
#       items: {type: array, items: {$ref: "#/components/schemas/Pet"}}
#       total: {type: integer}
#   # good
#   schema:
#     type: object
#     properties:
#       items: {type: array, items: {$ref: "#/components/schemas/Pet"}}
#       next: {type: string, format: uri, nullable: true}
#   ```
# custom:
#   category: Pagination
#   maturity: Silver
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Declare a `Link` response header carrying `rel="next"`, or add a
#     `next` link, a `next_cursor` or a `has_more` flag to the body.
package specgate.rules["page-response-next-link"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(page.response.source, msg) if {
	some [op, page] in pagination.list_pages
	not pagination.has_link_header(page.response)
	pagination.array_page(page.body.schema)
	msg := sprintf("%s is a bare array without a Link header, so clients cannot tell whether there is a next page", [pagination.describe(op, page.response, page.body)])
}

violations contains util.violation(page.response.source, msg) if {
	some [op, page] in pagination.list_pages
	not pagination.has_link_header(page.response)
	pagination.object_page(page.body.schema)
	not pagination.has_next_hint(page.body.schema)
	msg := sprintf("%s has no next link, cursor or has-more property and no Link header, so clients cannot tell how to get the next page", [pagination.describe(op, page.response, page.body)])
}
