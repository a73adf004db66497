# METADATA
# title: Channel parameters match the address expressions
# description: |
#   Every `{name}` expression of a channel address is described under the
#   channel's `parameters`, and every parameter there appears in the
#   address. AsyncAPI requires the parameters map to hold all the
#   parameters the address uses, and to be present only when it uses some:
#   an undescribed expression leaves clients guessing what to substitute,
#   and a parameter the address does not use can never be sent.
#
#   The channel keys of AsyncAPI 2 and the `address` of AsyncAPI 3 channels
#   are checked (a 3.x channel whose address is null or absent is skipped:
#   its address is not known upfront). Channels under `components` are
#   checked where a root channel uses them. A missing parameter is reported
#   on the channel key (2.x) or its `address` (3.x); a parameter the address
#   does not use is reported where it is written.
#
#   ```yaml
#   channels:
#     users/{userId}/signedup:   # bad: no parameter "userId"
#       parameters:
#         id:                    # bad: not in the address
#           description: Id of the user.
#     users/{userId}/deleted:    # good
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
#   peers: ["spectral:asyncapi-channel-parameters", "vacuum:asyncapi-channel-parameters"]
#   howToFix: |
#     Add a parameter named exactly like each expression (names are case
#     sensitive), with a description and, in AsyncAPI 2, a schema; remove
#     parameters the address does not use or add their expression to it.
package specgate.rules["asyncapi-channel-parameters"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(asyncapi.address_source(ch), msg) if {
	some ch in input.channels
	some name in asyncapi.expressions(asyncapi.address(ch))
	name != ""
	not name in object.keys(_parameters(ch))
	msg := sprintf("%s uses {%s}, but the channel has no parameter %q", [asyncapi.address_label(ch), name, name])
}

violations contains util.violation(array.concat(ch.source, ["parameters", name]), msg) if {
	some ch in input.channels
	addr := asyncapi.address(ch)
	some name, _ in _parameters(ch)
	not name in asyncapi.expressions(addr)
	msg := sprintf("parameter %q of %s is not used: %q has no {%s}", [name, asyncapi.channel(ch), addr, name])
}

_parameters(ch) := p if {
	p := asyncapi.deref(ch.node.parameters)
	is_object(p)
} else := {}
