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

import data.specgate.lib.security
import data.specgate.lib.style
import data.specgate.lib.util

# The responses of the statuses that need a Location header, found through
# the index of responses by status (security.responses_with) rather than
# by a test of every response.
violations contains util.violation(style.response_at(op, resp), msg) if {
	some [status, method, why] in _needs_location
	some [op, resp] in security.responses_with(status)
	method in {"", op.method}
	not style.has_header(resp, {"location"})
	msg := sprintf("%s declares no Location header; %s", [style.response_name(op, resp), why])
}

# _needs_location are [status, method ("" for any), why] for the
# responses that need the header.
_needs_location := [
	["201", "post", "clients find the created resource there"],
	["301", "", "clients need it to follow the redirect"],
	["302", "", "clients need it to follow the redirect"],
	["303", "", "clients need it to follow the redirect"],
	["307", "", "clients need it to follow the redirect"],
	["308", "", "clients need it to follow the redirect"],
]
