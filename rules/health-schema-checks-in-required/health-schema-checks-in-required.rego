# METADATA
# title: The /health/info response schema requires "checks"
# description: |
#   The success response schema of each `GET …/health/info` operation
#   lists `checks` in `required`, so that every detailed health response
#   says which dependencies were checked.
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
#   A response without a schema is left to `health-schema-checks`.
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
#     required: [checks]
#     properties:
#       checks: {type: object}
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Add `checks` to the `required` list of the success response schema of
#     `GET /health/info`.
package specgate.rules["health-schema-checks-in-required"]

import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some [path, msg] in health.not_required("/health/info", "checks")
}
