# METADATA
# title: Channel addresses have no query or fragment
# description: |
#   A channel address names a topic, queue, routing key or path; AsyncAPI
#   forbids query parameters and fragments in it (2.x channel names and
#   3.x addresses alike) and asks for bindings to describe them instead. A
#   `?` or `#` in an address is either such a forbidden part or a
#   character that brokers and URL parsers will split on.
#
#   The channel keys of AsyncAPI 2 and the `address` of AsyncAPI 3 channels
#   are checked. The rule reports on the channel key (2.x) or its `address`
#   (3.x).
#
#   ```yaml
#   channels:
#     users/signedup?region=eu:  # bad: query in the channel name
#     users/signedup:            # good: describe the filter with bindings
#   ```
# custom:
#   category: Channels
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-channel-no-query-nor-fragment", "spectral:asyncapi-3-channel-no-query-nor-fragment", "vacuum:asyncapi-3-channel-no-query-nor-fragment"]
#   howToFix: |
#     Remove the query or fragment from the address; describe filters and
#     other protocol details with the channel's or operation's `bindings`,
#     or make the part a `{parameter}` of the address.
package specgate.rules["asyncapi-channel-no-query-nor-fragment"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(asyncapi.address_source(ch), msg) if {
	some ch in input.channels
	addr := asyncapi.address(ch)
	some c in ["?", "#"]
	contains(addr, c)
	msg := sprintf("%s contains %q: a %s is not allowed in a channel address; use bindings", [asyncapi.address_label(ch), c, _part[c]])
}

_part := {"?": "query", "#": "fragment"}
