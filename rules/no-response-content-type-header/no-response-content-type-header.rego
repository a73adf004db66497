# METADATA
# title: Responses do not declare a Content-Type header
# description: |
#   No response declares a header named `Content-Type` (compared without
#   case). The media types of a response set its `Content-Type`: in
#   OpenAPI 3 the keys under `content`, in Swagger 2.0 `produces`. OpenAPI 3
#   says a response header named `Content-Type` SHALL be ignored, so its
#   schema and description never reach tools; in Swagger 2.0 it repeats
#   `produces` and drifts from it.
#
#   Every response of every operation (paths, webhooks and callbacks) is
#   checked; the rule reports on the header's key, once where a shared
#   response or header is written.
#
#   ```yaml
#   responses:
#     "200":
#       headers:
#         Content-Type: {schema: {type: string}}   # bad
#       content:
#         application/json: {schema: {type: object}}  # good: this sets it
#   ```
# custom:
#   category: Responses
#   maturity: Bronze
#   severity: warn
#   family: headers
#   formats: [oas2, oas3]
#   howToFix: |
#     Remove the header and list the media types the response can have as
#     keys under its `content` (Swagger 2.0: in `produces`).
package specgate.rules["no-response-content-type-header"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(item.header.source, msg) if {
	some item in style.response_headers
	lower(item.header.name) == "content-type"
	msg := sprintf("response header %q %s", [item.header.name, _advice])
}

_advice := "repeats what produces declares; list the response's media types in produces instead" if util.is_oas2

else := "is ignored in OpenAPI 3; the media types under the response's content set Content-Type"
