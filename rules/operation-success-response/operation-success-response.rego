# METADATA
# title: Operations define a success response
# description: |
#   Every operation defines at least one success (2xx) or redirect (3xx)
#   response. Clients and generated code need to know what a successful
#   call returns; an operation that only lists errors, or only `default`,
#   documents how it fails but not what it does.
#
#   A specific status (`200`, `204`, `302`) and a range (`2XX`, `3XX`)
#   count; `default` alone does not. Operations under `paths`, `webhooks`
#   and `callbacks` are checked. The rule reports on the operation's
#   `responses`, or on the operation when it has none.
#
#   ```yaml
#   get:
#     responses:      # bad: no 2xx or 3xx
#       "404": {description: Not found}
#       default: {description: Error}
#   ```
# custom:
#   category: Responses
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-success-response", "vacuum:post-response-success", "spectral:operation-success-response", "redocly:operation-2xx-response"]
#   howToFix: |
#     Add the response the operation returns when it succeeds, such as
#     `200` with its content, `201` for a creation, `204` when there is no
#     body or `302` for a redirect.
package specgate.rules["operation-success-response"]

import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["responses"]), msg) if {
	some i in _failing
	op := util.http_operations[i]
	"responses" in object.keys(op.node)
	msg := sprintf("%s has no success (2xx) or redirect (3xx) response", [naming.operation(op)])
}

violations contains util.violation(op.source, msg) if {
	some i in _failing
	op := util.http_operations[i]
	not "responses" in object.keys(op.node)
	msg := sprintf("%s declares no responses; add at least one 2xx or 3xx response", [naming.operation(op)])
}

# _failing are the positions of the operations with no success or
# redirect status, found in one call: an operation that declares no
# responses has none either.
_failing := specgate.positions_matching(util.http_operations, ["responses", null, "status"], `^[23]([0-9][0-9]|[Xx][Xx])$`)[1]
