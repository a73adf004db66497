# METADATA
# title: The /health/info response schema has a "status" property
# description: |
#   The success response schema of each `GET …/health/info` operation
#   declares a `status` property, as the `/health` response does: the
#   detailed health response carries the overall status beside the checks
#   behind it, so that one call tells both whether the service is up and
#   why.
#
#   Endpoints are GET operations on paths ending in `/health/info`
#   (trailing slashes ignored, any prefix without templates); the success
#   response is the lowest 2xx status present, else `2XX`; its schema is
#   the one of `application/health+json` when that media type has a
#   schema, else of the first media type with a schema. Properties of
#   `allOf` members count; a member written as a local `$ref` is read from
#   the document, one level deep. When a member cannot be resolved that way
#   (an external file), the rule says nothing rather than guess. When the
#   endpoint or its 2xx response is missing the rule says nothing:
#   `health-endpoint` covers that. That `status` is also required is
#   `health-info-schema-status-in-required`.
#
#   A success response without any schema is reported on the response.
#
#   ```yaml
#   # bad
#   HealthInfo:
#     type: object
#     properties:
#       checks: {type: object}
#   # good
#   HealthInfo:
#     type: object
#     required: [status, checks]
#     properties:
#       status: {type: string, enum: [pass, fail, warn]}
#       checks: {type: object}
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `status` property (`type: string`, `enum: [pass, fail, warn]`)
#     to the schema of the success response of `GET /health/info`.
package specgate.rules["health-info-schema-status"]

import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some [path, msg] in health.missing_property("/health/info", "status")
}
