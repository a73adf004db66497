# METADATA
# title: operationIds are unique
# description: |
#   No two operations share an `operationId`. The OpenAPI specification
#   requires operationIds to be unique among all operations of the API:
#   tools use them as the names of client methods, as link targets and as
#   keys, and a duplicate makes them pick one operation silently.
#
#   Operations under `paths`, under `webhooks` and in `callbacks` share one
#   namespace; comparison is case-sensitive, as the specification says, and
#   operations without an operationId are ignored. The first operation in
#   the order paths, webhooks, callbacks (each in document order) keeps its
#   operationId; every later one is reported on its `operationId`, and the
#   message names the first.
#
#   ```yaml
#   paths:
#     /pets:
#       get: {operationId: listPets}
#     /cats:
#       get: {operationId: listPets}  # bad: already used by GET /pets
#   ```
# custom:
#   category: Operations
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-operationId-unique", "spectral:operation-operationId-unique", "redocly:operation-operationId-unique"]
#   howToFix: |
#     Give each operation its own operationId, usually a verb and the
#     resource (`listPets`, `listCats`). Renaming an operationId renames the
#     method of generated clients.
package specgate.rules["operation-id-unique"]

import data.specgate.lib.naming
import data.specgate.lib.util

_operations := array.concat(array.concat(input.operations, input.webhooks), input.callbacks)

# _ids are the operations' ids in order ("" for none). specgate.repeats
# finds each id that an earlier operation has, with that operation, in one
# pass: sorting [id, position] pairs and testing each against its
# neighbour cost more.
_ids := [op.operationId | some op in _operations]

violations contains util.violation(array.concat(op.source, ["operationId"]), msg) if {
	some [i, first] in specgate.repeats(_ids)
	id := _ids[i]
	id != ""
	op := _operations[i]
	msg := sprintf("operationId %q is already used by %s; operationIds must be unique", [id, naming.operation(_operations[first])])
}
