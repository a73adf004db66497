# METADATA
# title: 204, 304 and HEAD responses have no body
# description: |
#   No `204 No Content` or `304 Not Modified` response, and no response of
#   a HEAD operation, declares a body (OpenAPI 3 `content`, Swagger 2.0
#   `schema`). RFC 9110 ends these responses with their headers: they
#   cannot carry content. A body declared for them is never sent, and
#   clients generated from the description wait for it or fail to parse
#   nothing.
#
#   Operations under `paths`, `webhooks` and `callbacks` are checked. An
#   empty `content: {}` declares no body. The rule reports on the
#   response's `content` (Swagger 2.0: `schema`), once where a shared
#   response is written.
#
#   ```yaml
#   delete:
#     responses:
#       "204":
#         description: Deleted
#         content:                  # bad
#           application/json: {schema: {$ref: "#/components/schemas/Pet"}}
#       "200":                      # good: a response with a body is a 200
#         description: Deleted
#         content:
#           application/json: {schema: {$ref: "#/components/schemas/Pet"}}
#   ```
# custom:
#   category: Responses
#   maturity: Baseline
#   severity: error
#   family: structure
#   formats: [oas2, oas3]
#   howToFix: |
#     Remove the body, or, when the operation does return one, use a status
#     that allows it (`200` instead of `204`). For HEAD, describe the
#     headers only: the body belongs to the matching GET.
package specgate.rules["no-response-body"]

import data.specgate.lib.style
import data.specgate.lib.util

# The responses of status 204 or 304 (HEAD operations are the next rule's)
# and the HEAD operations are found in one call each (specgate.matching),
# not by a test of each of a large API's tens of thousands of responses and
# operations.
violations contains util.violation(array.concat(style.response_at(op, resp), [_body_key]), msg) if {
	some use in specgate.matching(style.response_uses, ["response", "status"], "^(204|304)$")
	resp := use.response
	op := use.op
	why := _why(op.method, resp.status)
	count(resp.content) > 0
	msg := _message(op, resp, why)
}

# A shared response is judged by its status with its first user above;
# HEAD operations are also checked one by one, since any of them makes a
# shared response with a body wrong.
violations contains util.violation(array.concat(style.response_at(op, resp), [_body_key]), msg) if {
	some op in specgate.matching(style.operations, ["method"], "^head$")
	some resp in op.responses
	count(resp.content) > 0
	msg := _message(op, resp, _why("head", resp.status))
}

_message(op, resp, why) := sprintf("%s declares a body (%s); %s", [style.response_name(op, resp), concat(", ", [mt.mediaType | some mt in resp.content]), why])

_body_key := "schema" if util.is_oas2

else := "content"

_why("head", _) := "a response to HEAD never has one"

_why(method, "204") := "a 204 response never has one" if method != "head"

_why(method, "304") := "a 304 response never has one" if method != "head"
