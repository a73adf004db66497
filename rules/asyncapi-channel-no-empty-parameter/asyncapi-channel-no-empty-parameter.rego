# METADATA
# title: Channel addresses have no empty {} expression
# description: |
#   A channel address may hold expressions such as `{userId}`, each named
#   and described by a channel parameter. An empty `{}` names nothing: no
#   parameter can describe it, code generators cannot turn it into an
#   argument, and clients cannot know what to put there.
#
#   The channel keys of AsyncAPI 2 and the `address` of AsyncAPI 3 channels
#   are checked (a null or absent 3.x address is not known upfront and is
#   skipped). The rule reports on the channel key (2.x) or its `address`
#   (3.x).
#
#   ```yaml
#   channels:
#     users/{}/signedup:        # bad: the expression has no name
#     users/{userId}/signedup:  # good
#       parameters:
#         userId:
#           description: Id of the user.
#   ```
# custom:
#   category: Channels
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-channel-no-empty-parameter", "spectral:asyncapi-3-channel-no-empty-parameter", "vacuum:asyncapi-3-channel-no-empty-parameter"]
#   howToFix: |
#     Name the expression after what it stands for (`{userId}`) and describe
#     it under the channel's `parameters`, or remove the braces if the part
#     is fixed.
package specgate.rules["asyncapi-channel-no-empty-parameter"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(asyncapi.address_source(ch), msg) if {
	some ch in input.channels
	contains(asyncapi.address(ch), "{}")
	msg := sprintf("%s has an empty {} expression; name it after the parameter it stands for", [asyncapi.address_label(ch)])
}
