# METADATA
# title: Response headers declare their type
# description: |
#   Every response header says what its value is: in OpenAPI 3 a `schema`
#   (or a `content` map), in Swagger 2.0 a `type`. The specifications
#   require it, and without it clients and mocks cannot parse or produce
#   the value (is `X-Rate-Limit` a number? is `Expires` a date?).
#
#   Every response of every operation (paths, webhooks and callbacks) is
#   checked; the rule reports on the header, once where a shared response
#   or header is written. A header written as a `$ref` that cannot
#   be followed is left to `no-unresolved-ref`.
#
#   ```yaml
#   headers:
#     X-Rate-Limit:
#       description: Requests left   # bad: no schema
#     X-Rate-Limit:
#       description: Requests left
#       schema: {type: integer}      # good
#   ```
# custom:
#   category: Responses
#   maturity: Baseline
#   severity: error
#   family: headers
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `schema` with the header's type (Swagger 2.0: `type`, and
#     `items` for an array), with a `format` where one applies
#     (`date-time`, `int64`, `uri`).
package specgate.rules["response-header-schema"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(style.header_at(item.response, item.header), msg) if {
	some item in style.response_headers
	h := item.header
	is_object(h.node)
	not "$ref" in object.keys(h.node)
	not _typed(h)
	msg := sprintf("response header %q %s", [h.name, _missing])
}

_typed(h) if {
	util.is_oas2
	"type" in object.keys(h.node)
}

_typed(h) if {
	not util.is_oas2
	h.schema != null
}

_typed(h) if {
	not util.is_oas2
	"content" in object.keys(h.node)
}

_missing := "has no type; declare it with type (and items for an array)" if util.is_oas2

else := "has no schema; declare its type with schema (or content)"
