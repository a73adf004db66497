# METADATA
# title: Health endpoints are defined
# description: |
#   The API defines a GET operation on a path ending in `/health` and a GET
#   operation on a path ending in `/health/info`, so that platforms, load
#   balancers and people can check that the service is alive and what it runs.
#
#   Trailing slashes are ignored and any prefix is allowed (`/v1/health`
#   counts), unless it has a template: `/repos/{owner}/{repo}/pages/health`
#   is the health of one resource (a repository's site), not of the
#   service. A path that has only another method (say `POST /health`) does
#   not count. When either endpoint is missing, the rule reports once for the
#   API, on the `paths` key.
# custom:
#   category: Operations
#   maturity: Gold
#   severity: error
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Add `GET /health` returning the service status and `GET /health/info`
#     returning build and dependency details, under any prefix without
#     templates (`/v1/health`, `/actuator/health`).
package specgate.rules["health-endpoint"]

import data.specgate.lib.health
import data.specgate.lib.util

_has_get(suffix) if count(health.get_operations(suffix)) > 0

_missing contains "GET /health" if not _has_get("/health")

_missing contains "GET /health/info" if not _has_get("/health/info")

_anchor := ["paths"] if "paths" in object.keys(input.document)

else := []

violations contains util.violation(_anchor, msg) if {
	count(_missing) > 0
	msg := sprintf("the API has no %s operation; health checks need GET on paths ending in /health and /health/info", [concat(" and no ", sort(_missing))])
}
