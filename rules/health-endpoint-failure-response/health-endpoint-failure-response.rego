# METADATA
# title: Health endpoints declare their failure response
# description: |
#   Each health endpoint declares a `5xx` response (usually `503 Service
#   Unavailable`), the answer it gives when the service is failing. The
#   health check response format requires a status code from 4xx to 5xx
#   with `status: fail`, and load balancers, orchestrators and monitors
#   act on the status code alone; a health endpoint that only declares
#   `200` suggests it always answers 200, or leaves its failure undescribed
#   for clients and mocks.
#
#   Health endpoints are GET operations on paths ending in `/health` or
#   `/health/info` (trailing slashes ignored, any prefix without
#   templates), as in `health-endpoint`. A `5XX` range counts; `default`
#   and 4xx statuses do not, since they usually describe other errors
#   (a bad request, missing credentials). The rule reports on the
#   operation's `responses`.
#
#   ```yaml
#   /health:
#     get:
#       responses:
#         "200": {description: The service is up}
#         "503": {description: The service is failing}   # good
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `503` response whose body has the same health schema as the
#     success response, with `status: fail`.
package specgate.rules["health-endpoint-failure-response"]

import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["responses"]), msg) if {
	some op in health.endpoints
	not _declares_failure(op)
	msg := sprintf("GET %s declares no 5xx response; a failing service answers 503 with status fail, and monitors act on that status code", [op.path])
}

_declares_failure(op) if {
	some r in op.responses
	startswith(r.status, "5")
}
