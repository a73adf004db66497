# METADATA
# title: AsyncAPI 2 operationIds are unique
# description: |
#   Each `operationId` of an AsyncAPI 2 document is used by one operation
#   only: the specification requires it to be unique among all operations,
#   since tools and other documents identify operations by it. Two
#   operations with one id make generated code fail to compile or silently
#   drop one of them.
#
#   The first operation (in document order) keeps the id; each later one is
#   reported on its `operationId`, naming the first. AsyncAPI 3 operations
#   are keyed by their id, so they cannot repeat.
#
#   ```yaml
#   channels:
#     users/signedup:
#       subscribe:
#         operationId: onUser
#     users/deleted:
#       subscribe:
#         operationId: onUser         # bad: used by users/signedup already
#       publish:
#         operationId: deleteUser     # good
#   ```
# custom:
#   category: Operations
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2]
#   peers: ["spectral:asyncapi-operation-operationId-uniqueness"]
#   howToFix: |
#     Rename one of the operations so that each `operationId` says what its
#     operation does (`onUserSignedUp`, `onUserDeleted`).
package specgate.rules["asyncapi-operation-id-unique"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

# _ids pairs each operationId with its operation's index, sorted, so that
# equal ids are adjacent and the first of each run is the first operation
# that uses it.
_ids := sort([[op.id, i] | some i, op in input.asyncOperations; op.id != ""])

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
	op := input.asyncOperations[i]
	first := input.asyncOperations[_first[id]]
	msg := sprintf("operationId %q is already used by the %s operation of channel %q; operationIds must be unique", [id, first.action, first.channel])
}
