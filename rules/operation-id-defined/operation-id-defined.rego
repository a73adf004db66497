# METADATA
# title: Operations have an operationId
# description: |
#   Every operation has an `operationId`. Code generators name the client
#   method after it (without one they invent a name from the method and the
#   path, which changes when the path does), documentation tools use it in
#   links and anchors, and OpenAPI links (`operationId` of a Link object)
#   and tools such as mock servers and contract tests refer to operations
#   by it.
#
#   Operations under `paths`, `webhooks` and `callbacks` are checked; an id
#   made only of whitespace counts as missing. The rule reports on the
#   operation. That ids are unique is `operation-id-unique`.
#
#   ```yaml
#   /pets:
#     get:                        # bad: no operationId
#       summary: List pets
#     get:
#       operationId: listPets     # good
#       summary: List pets
#   ```
# custom:
#   category: Operations
#   maturity: Bronze
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-operationId", "spectral:operation-operationId", "redocly:operation-operationId"]
#   howToFix: |
#     Add an `operationId` that says what the operation does, spelled the
#     way the API's other ids are (`listPets`, `list-pets`), unique in the
#     document.
package specgate.rules["operation-id-defined"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(op.source, msg) if {
	some op in style.operations
	trim_space(op.operationId) == ""
	msg := sprintf("%s has no operationId; generated clients, links and tools name operations by it", [naming.operation(op)])
}
