# METADATA
# title: Operation ids use only URL-safe characters
# description: |
#   Every `operationId` is made of characters that may appear in a URL
#   unencoded: letters, digits and `-._~:/?#[]@!$&'()*+,;=`. Documentation
#   tools build links and anchors from operation ids, and code generators
#   turn them into function names: a space, a quote, `{`, `%` or a non-ASCII
#   letter breaks the link or gives a mangled name.
#
#   Operations under `paths`, `webhooks` and `callbacks` are checked; the
#   rule reports on the `operationId`, listing the characters that are not
#   allowed. An operation without an id is left to `operation-id-defined`.
#
#   ```yaml
#   get:
#     operationId: find pet by id  # bad
#     operationId: findPetById     # good
#   ```
# custom:
#   category: Operations
#   maturity: Bronze
#   severity: error
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-operationId-valid-in-url", "spectral:operation-operationId-valid-in-url", "redocly:operation-operationId-url-safe"]
#   howToFix: |
#     Rename the operation with letters and digits, joining words the way
#     the API's other operation ids do (`findPetById`, `find-pet-by-id`),
#     and update the links and generated clients that use the old id.
package specgate.rules["operation-id-url-safe"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

_safe := `^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]*$`

violations contains util.violation(array.concat(op.source, ["operationId"]), msg) if {
	some op in style.operations
	op.operationId != ""
	not regex.match(_safe, op.operationId)
	msg := sprintf("operationId %q of %s contains %s, which a URL cannot hold unencoded", [op.operationId, naming.operation(op), concat(", ", style.characters_outside(op.operationId, _safe))])
}
