# METADATA
# title: Channel addresses do not end with a slash
# description: |
#   `users/signedup/` and `users/signedup` look like the same channel but
#   are different topic names or paths to most brokers: a subscriber to one
#   does not receive the messages published to the other. Writing addresses
#   without a trailing slash keeps them unambiguous and consistent.
#
#   The channel keys of AsyncAPI 2 and the `address` of AsyncAPI 3 channels
#   are checked; an address that is only `/` is left alone. The rule
#   reports on the channel key (2.x) or its `address` (3.x).
#
#   ```yaml
#   channels:
#     users/signedup/:   # bad
#     users/signedup:    # good
#   ```
# custom:
#   category: Channels
#   maturity: Silver
#   severity: warn
#   family: structure
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-channel-no-trailing-slash", "spectral:asyncapi-3-channel-no-trailing-slash", "vacuum:asyncapi-3-channel-no-trailing-slash", "redocly:no-channel-trailing-slash"]
#   howToFix: |
#     Remove the trailing slash, and check that producers and consumers use
#     the same spelling of the address.
package specgate.rules["asyncapi-channel-no-trailing-slash"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(asyncapi.address_source(ch), msg) if {
	some ch in input.channels
	addr := asyncapi.address(ch)
	endswith(addr, "/")
	addr != "/"
	msg := sprintf("%s ends with a slash", [asyncapi.address_label(ch)])
}
