# METADATA
# title: AsyncAPI 2 messageIds are unique
# description: |
#   Each `messageId` of an AsyncAPI 2 document identifies one message: the
#   specification requires it to be unique among all messages, because
#   tools and other documents look messages up by it. Two messages with
#   one id make generated code collide and references ambiguous.
#
#   A message used by several operations (through one `$ref`) is one
#   message, not a repeat. Messages whose `messageId` may come from a trait
#   are not compared. The first message (in document order) keeps the id;
#   each later one is reported on its `messageId`, naming the first.
#   AsyncAPI 3 keys messages by their id instead.
#
#   ```yaml
#   components:
#     messages:
#       userSignedUp:
#         messageId: user
#       userDeleted:
#         messageId: user          # bad: userSignedUp uses it already
#       userChanged:
#         messageId: userChanged   # good
#   ```
# custom:
#   category: Messages
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2]
#   peers: ["spectral:asyncapi-message-messageId-uniqueness"]
#   howToFix: |
#     Give each message its own `messageId`, named after what it carries
#     (`userSignedUp`, `userDeleted`).
package specgate.rules["asyncapi-message-id-unique"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

_ids := sort([[id, i] |
	some i, m in input.messages
	id := m.node.messageId
	is_string(id)
	id != ""
	not _trait_sets_id(m.node)
])

_trait_sets_id(node) if {
	some t in asyncapi.trait_values(node)
	t.messageId
}

_trait_sets_id(node) if asyncapi.has_unread_trait(node)

_first[id] := i if {
	some k, [id, i] in _ids
	not _repeats(k)
}

_repeats(k) if {
	k > 0
	_ids[k - 1][0] == _ids[k][0]
}

violations contains util.violation(array.concat(m.source, ["messageId"]), msg) if {
	some k, [id, i] in _ids
	_repeats(k)
	m := input.messages[i]
	msg := sprintf("messageId %q is already used by %s; messageIds must be unique", [id, asyncapi.message(input.messages[_first[id]])])
}
