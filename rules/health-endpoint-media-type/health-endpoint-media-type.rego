# METADATA
# title: Health endpoints respond with application/health+json
# description: |
#   The success response of each health endpoint declares the media type
#   `application/health+json` (the IETF draft "Health Check Response Format
#   for HTTP APIs"), so that monitors and platforms can read it without
#   knowing the API.
#
#   Health endpoints are GET operations on paths ending in `/health` or
#   `/health/info` (trailing slashes ignored, any prefix without
#   templates), as in
#   `health-endpoint`. The success response is the lowest numeric 2xx status
#   present (200 before 204), else a `2XX` range. Media types are compared
#   without parameters and case (`application/health+json; charset=utf-8`
#   counts). For Swagger 2.0 the media types are the `produces` list of the
#   operation, else of the document. An endpoint without a 2xx response is
#   not reported (other rules cover it).
#
#   ```yaml
#   # bad
#   /health:
#     get:
#       responses:
#         "200":
#           content:
#             application/json: {schema: {$ref: "#/components/schemas/Health"}}
#   # good
#   /health:
#     get:
#       responses:
#         "200":
#           content:
#             application/health+json: {schema: {$ref: "#/components/schemas/Health"}}
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Declare `application/health+json` as the media type of the success
#     response (for Swagger 2.0, in the operation's `produces`). Keep
#     `application/json` beside it if existing clients need it.
package specgate.rules["health-endpoint-media-type"]

import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(resp.source, msg) if {
	some op in health.endpoints
	resp := health.first_success(op)
	types := health.media_types(op, resp)
	not health.health_media_type in {health.base_media_type(t) | some t in types}
	msg := sprintf("GET %s responds %s %s; a health endpoint must declare the media type %s", [op.path, resp.status, _declared(types), health.health_media_type])
}

_declared(types) := "without a media type" if count(types) == 0

else := sprintf("with %s", [concat(", ", types)])
