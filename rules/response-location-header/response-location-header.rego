# METADATA
# title: Created and redirect responses declare a Location header
# description: |
#   A `201 Created` response to POST and every redirect (`301`, `302`,
#   `303`, `307`, `308`) declares a `Location` response header. RFC 9110
#   identifies the resource a POST created by `Location` (without it, the
#   target URI, which for a POST is the collection, would be the new
#   resource), and a redirect without `Location` cannot be followed.
#   Declaring the header tells client generators and readers where to look.
#
#   Operations under `paths` are checked (webhook and callback responses
#   come from the API's clients). The header name is compared without case.
#   The rule reports on the response, once where a shared response is
#   written.
#
#   ```yaml
#   post:
#     responses:
#       "201":
#         description: Created   # bad: no Location
#       "201":
#         description: Created
#         headers:
#           Location: {schema: {type: string, format: uri-reference}}  # good
#   ```
# custom:
#   category: Responses
#   maturity: Silver
#   severity: warn
#   family: headers
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `Location` header (`schema: {type: string, format:
#     uri-reference}`) to the response, described as the URL of the created
#     resource or of the redirect target.
package specgate.rules["response-location-header"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(style.response_at(op, resp), msg) if {
	some op in input.operations
	some resp in op.responses
	why := _needs_location(op.method, resp.status)
	not style.has_header(resp, {"location"})
	msg := sprintf("%s declares no Location header; %s", [style.response_name(op, resp), why])
}

_needs_location("post", "201") := "clients find the created resource there"

_needs_location(_, status) := "clients need it to follow the redirect" if status in {"301", "302", "303", "307", "308"}
