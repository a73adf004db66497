# METADATA
# title: operationIds use URL-safe characters
# description: |
#   An operationId contains only characters that may appear in a URL
#   unescaped: letters, digits and `- . _ ~ : / ? # [ ] @ ! $ & ' ( ) * + ,
#   ; =` (RFC 3986). Tools use operationIds in URLs (documentation anchors,
#   links between operations, generated routes) and as identifiers; a
#   space, a quote or a non-ASCII letter breaks links or has to be escaped
#   differently by every tool.
#
#   Operations under `paths`, `webhooks` and `callbacks` are checked; an
#   operation without an operationId is left to other rules. The rule
#   reports on the operationId, listing the characters that are not safe.
#
#   ```yaml
#   get:
#     operationId: list pets    # bad: a space
#   get:
#     operationId: listPets
#   ```
# custom:
#   category: Operations
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:operation-operationId-valid-in-url", "vacuum:operation-operationId-valid-in-url", "redocly:operation-operationId-url-safe"]
#   howToFix: |
#     Rewrite the operationId with letters and digits, in the casing of the
#     API (`listPets`, `list_pets`, `list-pets`). Renaming it renames the
#     method of generated clients.
package specgate.rules["operation-id-url-safe"]

import data.specgate.lib.correctness
import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["operationId"]), msg) if {
	some i in specgate.positions_matching(correctness.operations, ["operationId"], _url_safe)[1]
	op := correctness.operations[i]
	op.operationId != ""
	not regex.match(_url_safe, op.operationId)
	bad := {c | some c in regex.find_n(`[^A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]`, op.operationId, -1)}
	msg := sprintf("operationId %q of %s contains characters that are not URL-safe: %s", [op.operationId, naming.operation(op), concat(" ", [sprintf("%q", [c]) | some c in sort(bad)])])
}

# _url_safe matches an id of URL-safe characters only: the operations whose
# id it does not match are found in one call, among thousands of ids.
_url_safe := `^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]*$`
