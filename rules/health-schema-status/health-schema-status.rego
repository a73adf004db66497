# METADATA
# title: The /health response schema has a "status" property
# description: |
#   The success response schema of each `GET …/health` operation declares
#   a `status` property, which tells whether the service is up (`pass`,
#   `fail` or `warn` in the health check response format). Monitors read
#   this one field.
#
#   Endpoints are GET operations on paths ending in `/health` (trailing slashes
#   ignored, any prefix without templates); the success response is the lowest
#   2xx status present, else `2XX`; its schema is the one of
#   `application/health+json` when that media type has a schema, else of the
#   first media type with a schema. Properties and `required` of `allOf` members
#   count; a member written as a local `$ref` (`#/components/schemas/X`,
#   `#/definitions/X`) is read from the document, one level deep. When a member
#   cannot be resolved that way (an external file), the rule says nothing rather
#   than guess. When the endpoint or its 2xx response is missing the rule says
#   nothing: `health-endpoint` covers that.
#
#   A success response without any schema is reported on the response: it
#   cannot tell the status either.
#
#   ```yaml
#   # bad
#   Health:
#     type: object
#     properties:
#       uptime: {type: integer}
#   # good
#   Health:
#     type: object
#     required: [status]
#     properties:
#       status: {type: string, enum: [pass, fail, warn]}
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `status` property (`type: string`, `enum: [pass, fail, warn]`)
#     to the schema of the success response of `GET /health`.
package specgate.rules["health-schema-status"]

import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some [path, msg] in health.missing_property("/health", "status")
}
