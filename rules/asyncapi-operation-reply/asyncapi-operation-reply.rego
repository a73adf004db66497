# METADATA
# title: AsyncAPI 3 replies name a channel and its messages correctly
# description: |
#   The `reply` of a request-reply operation says where the answer goes and
#   what it looks like. Its `channel` is a `$ref` to a channel (for a reply
#   written in a root operation, one of the root `channels`), its
#   `messages` are `$ref`s to messages of that reply channel, and when the
#   reply gives an `address` the reply channel's own `address` is null or
#   absent. These are the specification's requirements; a reply that breaks
#   them sends the answer somewhere the responder and the requester do not
#   agree on.
#
#   A reply written as a `$ref` (to `components.replies`) may point to a
#   channel anywhere; its messages are still checked. The rule reports on
#   the reply's `channel`, on each offending item of its `messages`, and on
#   its `address`.
#
#   ```yaml
#   operations:
#     requestPrice:
#       action: send
#       channel: {$ref: '#/channels/priceRequests'}
#       reply:
#         channel: {$ref: '#/channels/priceReplies'}
#         messages:
#           - $ref: '#/components/messages/price'                # bad
#           - $ref: '#/channels/priceReplies/messages/price'     # good
#   ```
# custom:
#   category: Operations
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi3]
#   peers: ["vacuum:asyncapi-operation-reply"]
#   howToFix: |
#     Point the reply's `channel` to a root channel with
#     `$ref: '#/channels/<id>'`, list the reply messages on that channel and
#     point to them with `$ref: '#/channels/<id>/messages/<name>'`; when the
#     reply address is computed at runtime (`address.location`), leave the
#     reply channel's `address` null.
package specgate.rules["asyncapi-operation-reply"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

# _replies are the operations' replies that can be read, with where they
# are written: inline in the operation, or at the target of a local $ref.
_replies contains {"op": op, "reply": op.node.reply, "source": array.concat(op.source, ["reply"]), "root": true} if {
	some op in input.asyncOperations
	is_object(op.node.reply)
	not asyncapi.is_ref(op.node.reply)
}

_replies contains {"op": op, "reply": reply, "source": array.concat(op.source, ["reply"]), "root": false} if {
	some op in input.asyncOperations
	asyncapi.is_ref(op.node.reply)
	reply := asyncapi.deref(op.node.reply)
}

_owner(r) := sprintf("the reply of %s", [asyncapi.operation(r.op)])

violations contains util.violation(array.concat(r.source, ["channel"]), msg) if {
	some r in _replies
	not asyncapi.is_ref(r.reply.channel)
	msg := sprintf("%s writes its channel inline; point to a channel with a $ref", [_owner(r)])
}

violations contains util.violation(array.concat(r.source, ["channel"]), msg) if {
	some r in _replies
	r.root
	ref := r.reply.channel["$ref"]
	not asyncapi.root_channel(ref)
	msg := sprintf("%s points to %q, which is not one of the root channels", [_owner(r), ref])
}

violations contains util.violation(array.concat(r.source, ["messages", i]), msg) if {
	some r in _replies
	channel := asyncapi.root_channel(r.reply.channel["$ref"])
	some i, item in r.reply.messages
	msg := asyncapi.channel_message_problem(_owner(r), channel, item)
}

violations contains util.violation(array.concat(r.source, ["address"]), msg) if {
	some r in _replies
	r.reply.address
	channel := asyncapi.root_channel(r.reply.channel["$ref"])
	address := asyncapi.deref(input.document.channels[channel]).address
	is_string(address)
	msg := sprintf("%s has an address, so its channel %q must not have one, but it has %q", [_owner(r), channel, address])
}
