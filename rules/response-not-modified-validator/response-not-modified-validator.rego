# METADATA
# title: Operations that answer 304 give a validator
# description: |
#   When a GET or HEAD operation declares a `304 Not Modified` response, its
#   success response declares an `ETag` or a `Last-Modified` header. A 304
#   only answers a conditional request (`If-None-Match`,
#   `If-Modified-Since`), and clients can only make one with a validator
#   from an earlier response: without it the 304 can never happen, and the
#   caching the API offers stays unused.
#
#   The success response is the lowest 2xx status the operation declares
#   (else `2XX`); header names are compared without case. Operations under
#   `paths` are checked. The rule reports on the success response, once
#   where a shared response is written.
#
#   ```yaml
#   get:
#     responses:
#       "200":
#         description: The pet       # bad: no ETag or Last-Modified
#         headers:
#           ETag: {schema: {type: string}}   # good
#       "304":
#         description: Not modified
#   ```
# custom:
#   category: Responses
#   maturity: Gold
#   severity: warn
#   family: headers
#   formats: [oas2, oas3]
#   howToFix: |
#     Declare an `ETag` header (an opaque version of the representation) or
#     a `Last-Modified` header (an HTTP date) on the success response, and
#     describe the `If-None-Match` or `If-Modified-Since` request header
#     that makes the operation answer 304.
package specgate.rules["response-not-modified-validator"]

import data.specgate.lib.health
import data.specgate.lib.security
import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(style.response_at(op, success), msg) if {
	some [op, _] in security.responses_with("304")
	op.method in {"get", "head"}
	success := health.first_success(op)
	not _validated(op)
	msg := sprintf("%s declares no ETag or Last-Modified header, yet the operation answers 304 Not Modified; clients need one of them to make a conditional request", [style.response_name(op, success)])
}

_validated(op) if {
	some r in op.responses
	startswith(r.status, "2")
	style.has_header(r, {"etag", "last-modified"})
}
