# METADATA
# title: Operations have at most one tag
# description: |
#   An operation carries at most one tag. Tags group operations: reference
#   documentation lists an operation under each of its tags, and client
#   generators emit it once per tag, as a method of each tag's API class,
#   so an operation with two tags appears twice in the docs and twice in
#   the SDK. One tag per operation gives every operation one home.
#
#   Operations under `paths`, `webhooks` and `callbacks` are checked. The
#   rule reports on the operation's `tags`.
#
#   ```yaml
#   /pets/{petId}/owner:
#     get:
#       tags: [pets, owners]     # bad: listed under both groups
#       tags: [owners]           # good
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-singular-tag", "spectral:operation-singular-tag", "redocly:operation-singular-tag"]
#   howToFix: |
#     Keep the tag of the group the operation belongs to most and drop the
#     others; cross-reference related groups in the tags' descriptions
#     instead.
package specgate.rules["operation-single-tag"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["tags"]), msg) if {
	some op in style.operations
	count(op.tags) > 1
	msg := sprintf("%s has %d tags (%s); give it one", [naming.operation(op), count(op.tags), concat(", ", op.tags)])
}
