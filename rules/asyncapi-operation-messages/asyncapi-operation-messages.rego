# METADATA
# title: AsyncAPI 3 operation messages belong to its channel
# description: |
#   The `messages` of an AsyncAPI 3 operation are `$ref`s to messages of
#   the operation's own channel (`#/channels/<id>/messages/<name>`). The
#   specification requires them to be a subset of the channel's messages
#   and forbids pointing to `components.messages` or anywhere else: a
#   channel lists every message that may travel on it, and an operation
#   picks among them.
#
#   Operations whose channel is a `$ref` to a root channel are checked
#   (`asyncapi-operation-channel` reports the others). The rule reports on
#   each item of `messages` that is written inline, points outside the
#   channel, or names a message the channel does not have. An operation
#   without `messages` handles all of its channel's messages and is fine.
#
#   ```yaml
#   operations:
#     sendUserSignedUp:
#       action: send
#       channel: {$ref: '#/channels/userSignedUp'}
#       messages:
#         - $ref: '#/components/messages/userSignedUp'                 # bad
#         - $ref: '#/channels/userSignedUp/messages/userSignedUp'      # good
#   ```
# custom:
#   category: Operations
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi3]
#   peers: ["vacuum:asyncapi-operation-messages"]
#   howToFix: |
#     List the message under the channel's `messages` (usually as a `$ref`
#     to `components.messages`) and point the operation to the channel's
#     entry: `$ref: '#/channels/<channel>/messages/<message>'`.
package specgate.rules["asyncapi-operation-messages"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["messages", i]), msg) if {
	some op in input.asyncOperations
	channel := asyncapi.root_channel(op.node.channel["$ref"])
	some i, item in op.node.messages
	msg := asyncapi.channel_message_problem(asyncapi.operation(op), channel, item)
}
