# METADATA
# title: AsyncAPI 2 operations have an operationId
# description: |
#   Every `publish` and `subscribe` operation of an AsyncAPI 2 document has
#   an `operationId`. Code generators name the functions they generate
#   after it, documentation links to operations by it, and other documents
#   refer to an operation by it; without one each tool makes up its own
#   name from the channel, and the names change when the channel does.
#
#   An `operationId` given by one of the operation's traits counts; an
#   operation whose traits cannot all be read is skipped. AsyncAPI 3
#   operations are keyed by their id, so they always have one. The rule
#   reports on the operation.
#
#   ```yaml
#   channels:
#     users/signedup:
#       subscribe:                      # bad: no operationId
#         message: {$ref: '#/components/messages/userSignedUp'}
#       publish:
#         operationId: publishUserSignedUp   # good
#   ```
# custom:
#   category: Operations
#   maturity: Silver
#   severity: warn
#   family: structure
#   formats: [asyncapi2]
#   peers: ["spectral:asyncapi-operation-operationId", "redocly:operation-operationId"]
#   howToFix: |
#     Add an `operationId` unique in the document, named after what the
#     operation does (`onUserSignedUp`, `sendUserSignedUp`).
package specgate.rules["asyncapi-operation-id"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(op.source, sprintf("%s has no operationId", [asyncapi.operation(op)])) if {
	some op in input.asyncOperations
	not asyncapi.supplies(op.node, "operationId")
	not asyncapi.has_unread_trait(op.node)
}
