# METADATA
# title: GET, HEAD and DELETE operations take no request body
# description: |
#   No GET, HEAD or DELETE operation declares a request body (OpenAPI 3
#   `requestBody`, Swagger 2.0 `in: body` or `in: formData` parameters).
#   RFC 9110 gives content in these requests no defined meaning and warns
#   that some implementations reject it; proxies, caches and HTTP client
#   libraries drop it or refuse to send it, and OpenAPI 3.0 tells tools to
#   ignore it. What such an operation needs from the client belongs in the
#   path, the query or headers.
#
#   A request body that admits nothing (every schema an object with no
#   properties and `additionalProperties: false`) is not reported: it says
#   there is no body. Operations under `paths`, `webhooks` and `callbacks`
#   are checked; the rule reports on the request body (Swagger 2.0: the
#   body or first form parameter).
#
#   ```yaml
#   /reports:
#     get:
#       requestBody:             # bad
#         content:
#           application/json: {schema: {$ref: "#/components/schemas/Filter"}}
#   /reports/search:
#     post:                      # good: a search with a body is a POST
#       requestBody: …
#   ```
# custom:
#   category: Requests
#   maturity: Silver
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:no-request-body"]
#   howToFix: |
#     Move what the body carries into query parameters (for filters) or path
#     parameters, or, when it is too large or structured for a query, make
#     the operation a POST (`POST /reports/search`). For a DELETE that
#     removes several resources, name them in the query or use a POST to a
#     batch resource.
package specgate.rules["no-request-body"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(op.requestBody.source, msg) if {
	some op in style.operations
	op.method in {"get", "head", "delete"}
	op.requestBody != null
	not _admits_nothing(op.requestBody)
	msg := sprintf("%s has a request body; the body of a %s request has no defined meaning, and servers, proxies and clients may drop or reject it", [naming.operation(op), upper(op.method)])
}

_admits_nothing(body) if {
	count(body.formData) == 0
	count(body.content) > 0
	every mt in body.content {
		_empty_object(mt.schema)
	}
}

_empty_object(s) if {
	s.type == "object"
	count(object.get(s, "properties", {})) == 0
	s.additionalProperties == false
}
