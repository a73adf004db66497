# METADATA
# title: The /health/info response schema has a "checks" property
# description: |
#   The success response schema of each `GET …/health/info` operation
#   declares a `checks` property, which details the state of each
#   dependency the service checks (databases, queues, downstream APIs), as
#   in the health check response format.
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
#   A success response without any schema is reported on the response.
#
#   ```yaml
#   # bad
#   HealthInfo:
#     type: object
#     properties:
#       status: {type: string}
#       version: {type: string}
#   # good
#   HealthInfo:
#     type: object
#     required: [status, checks]
#     properties:
#       status: {type: string}
#       version: {type: string}
#       checks:
#         type: object
#         additionalProperties: {type: array, items: {$ref: "#/components/schemas/Check"}}
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `checks` property, an object keyed by component name, to the
#     schema of the success response of `GET /health/info`.
package specgate.rules["health-schema-checks"]

import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some [path, msg] in health.missing_property("/health/info", "checks")
}
