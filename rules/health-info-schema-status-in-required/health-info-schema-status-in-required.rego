# METADATA
# title: The /health/info response schema requires "status"
# description: |
#   The success response schema of each `GET …/health/info` operation
#   lists `status` in `required`: the detailed health response carries the
#   overall status too, so a client needs only one call.
#
#   Endpoints are GET operations on paths ending in `/health/info` (trailing
#   slashes ignored, any prefix without templates); the success response is the
#   lowest 2xx status present, else `2XX`; its schema is the one of
#   `application/health+json` when that media type has a schema, else of the
#   first media type with a schema. Properties and `required` of `allOf` members
#   count; a member written as a local `$ref` (`#/components/schemas/X`,
#   `#/definitions/X`) is read from the document, one level deep. When a member
#   cannot be resolved that way (an external file), the rule says nothing rather
#   than guess. When the endpoint or its 2xx response is missing the rule says
#   nothing: `health-endpoint` covers that.
#
#   A response without a schema is not reported.
#
#   ```yaml
#   # bad
#   HealthInfo:
#     type: object
#     properties:
#       status: {type: string}
#   # good
#   HealthInfo:
#     type: object
#     required: [status]
#     properties:
#       status: {type: string}
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Add `status` to the `required` list of the success response schema of
#     `GET /health/info`.
package specgate.rules["health-info-schema-status-in-required"]

import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some [path, msg] in health.not_required("/health/info", "status")
}
