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

# _ids pairs each operationId with its operation's index, sorted, so that
# equal operationIds are adjacent and the first of each run is the first
# operation that uses it.
_ids := sort([[op.operationId, i] | some i, op in _operations; op.operationId != ""])

_first[id] := i if {
	some k, [id, i] in _ids
	not _repeats(k)
}

_repeats(k) if {
	k > 0
	_ids[k - 1][0] == _ids[k][0]
}

violations contains util.violation(array.concat(op.source, ["operationId"]), msg) if {
	some k, [id, i] in _ids
	_repeats(k)
	op := _operations[i]
	msg := sprintf("operationId %q is already used by %s; operationIds must be unique", [id, naming.operation(_operations[_first[id]])])
}
