# METADATA
# title: Message payloads say their content type
# description: |
#   A consumer decodes a payload by its content type: the message's
#   `contentType`, or the document's `defaultContentType` when the message
#   has none. When neither is set, a JSON producer and an Avro consumer can
#   both be right about the same document, and each parser falls back to a
#   default of its own.
#
#   Messages with a `payload` are checked; a `contentType` given by one of
#   the message's traits counts, and a message whose traits cannot all be
#   read is skipped. Nothing is reported when the document sets
#   `defaultContentType`. The rule reports on the message.
#
#   ```yaml
#   asyncapi: 3.0.0               # bad: no defaultContentType, and
#   components:                   # the message has no contentType
#     messages:
#       userSignedUp:
#         payload: {type: object}
#   ---
#   asyncapi: 3.0.0
#   defaultContentType: application/json   # good: covers every message
#   ```
# custom:
#   category: Messages
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["vacuum:asyncapi-content-type"]
#   howToFix: |
#     Set `defaultContentType` at the top of the document (for instance
#     `application/json`), and `contentType` on the messages that differ.
package specgate.rules["asyncapi-message-content-type"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(m.source, msg) if {
	trim_space(object.get(input.document, "defaultContentType", "")) == ""
	some m in input.messages
	m.payload != null
	not asyncapi.supplies(m.node, "contentType")
	not asyncapi.has_unread_trait(m.node)
	msg := sprintf("%s has a payload but no contentType, and the document sets no defaultContentType", [asyncapi.message(m)])
}
