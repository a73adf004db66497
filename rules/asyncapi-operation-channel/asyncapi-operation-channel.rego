# METADATA
# title: AsyncAPI 3 operations point to a root channel
# description: |
#   Every operation of the root `operations` object names its channel with
#   a `$ref` to one of the root `channels` (`#/channels/<id>`). The
#   specification requires a reference, and forbids pointing a root
#   operation at a channel under `components` or anywhere else: the
#   operations an application implements act on the channels it declares.
#
#   The rule reports on the operation when it has no `channel`, and on its
#   `channel` when that is written inline or points elsewhere. A `$ref` to
#   a root channel that does not exist is reported too (it is broken).
#
#   ```yaml
#   operations:
#     sendUserSignedUp:
#       action: send
#       channel:
#         $ref: '#/components/channels/userSignedUp'   # bad
#         $ref: '#/channels/userSignedUp'              # good
#   ```
# custom:
#   category: Operations
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi3]
#   peers: ["vacuum:asyncapi-operation-channel"]
#   howToFix: |
#     Declare the channel under the root `channels` (it may itself be a
#     `$ref` to a component) and point the operation to it with
#     `$ref: '#/channels/<id>'`.
package specgate.rules["asyncapi-operation-channel"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(op.source, sprintf("%s has no channel", [asyncapi.operation(op)])) if {
	some op in input.asyncOperations
	not "channel" in object.keys(op.node)
}

violations contains util.violation(array.concat(op.source, ["channel"]), msg) if {
	some op in input.asyncOperations
	msg := _problem(op, op.node.channel)
}

_problem(op, ch) := sprintf("%s writes its channel inline; point to one of the root channels with $ref: '#/channels/<id>'", [asyncapi.operation(op)]) if {
	not asyncapi.is_ref(ch)
}

_problem(op, ch) := sprintf("%s points to %q, which is not one of the root channels", [asyncapi.operation(op), ch["$ref"]]) if {
	asyncapi.is_ref(ch)
	not asyncapi.root_channel(ch["$ref"])
}
