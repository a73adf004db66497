# METADATA
# title: Operations have a description
# description: |
#   Every operation says in its `description` what it does: when the
#   application sends or receives the message, what happens next, what a
#   consumer must do with it. Documentation generators show it as the body
#   of the operation; without it readers only see a channel and an action.
#
#   AsyncAPI 2 `publish`/`subscribe` operations and AsyncAPI 3 `operations`
#   are checked. A description given by one of the operation's traits
#   counts; an operation whose traits cannot all be read (one points to
#   another file) is skipped. A description made only of whitespace counts
#   as missing. The rule reports on the operation.
#
#   ```yaml
#   operations:
#     sendUserSignedUp:           # bad: no description
#       action: send
#       channel: {$ref: '#/channels/userSignedUp'}
#     receiveUserSignedUp:
#       action: receive
#       channel: {$ref: '#/channels/userSignedUp'}
#       description: Welcome mail is sent on each sign-up.   # good
#   ```
# custom:
#   category: Operations
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-operation-description", "spectral:asyncapi-3-operation-description", "vacuum:asyncapi-3-operation-description"]
#   howToFix: |
#     Add a `description` saying when the message flows, what it means and
#     what the receiver is expected to do. Markdown is allowed.
package specgate.rules["asyncapi-operation-description"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(op.source, sprintf("%s has no description", [asyncapi.operation(op)])) if {
	some op in input.asyncOperations
	not asyncapi.supplies(op.node, "description")
	not asyncapi.has_unread_trait(op.node)
}
