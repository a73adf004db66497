# METADATA
# title: Channel addresses are kebab-case
# description: |
#   The words of a channel address are lower case and joined by hyphens
#   (`user-signed-up`), whatever separates its segments (`/`, `.` or `:`).
#   One convention across channels makes addresses predictable for
#   producers and consumers, and avoids two spellings of one topic on
#   brokers whose names are case sensitive.
#
#   Segments are split at `/`, `.` and `:`; `{parameter}` expressions are
#   not checked (their names are the parameters'), so `users.{userId}` is
#   fine. The channel keys of AsyncAPI 2 and the `address` of AsyncAPI 3
#   channels are checked. The rule reports on the channel key (2.x) or its
#   `address` (3.x), naming the segments that are not kebab-case.
#
#   ```yaml
#   channels:
#     users/signedUp:    # bad
#     users/signed-up:   # good
#   ```
# custom:
#   category: Naming
#   maturity: Gold
#   severity: warn
#   family: naming
#   formats: [asyncapi2, asyncapi3]
#   peers: ["redocly:channels-kebab-case"]
#   howToFix: |
#     Rename the segments in lower case with hyphens between words
#     (`signedUp` becomes `signed-up`), and rename the topics or queues on
#     the broker to match.
package specgate.rules["asyncapi-channel-kebab-case"]

import data.specgate.lib.asyncapi
import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(asyncapi.address_source(ch), msg) if {
	some ch in input.channels
	bad := [s | some s in regex.split(`[/.:]`, asyncapi.address(ch)); _not_kebab(s)]
	count(bad) > 0
	msg := sprintf("%s is not kebab-case: %s", [asyncapi.address_label(ch), concat(", ", [_quote(s) | some s in bad])])
}

# A segment is checked with its {expressions} replaced by a placeholder
# word, so "user-{id}" passes and "User-{id}" does not.
_not_kebab(s) if {
	s != ""
	not naming.is_kebab(regex.replace(s, `\{[^{}]*\}`, "x"))
}

_quote(s) := sprintf("%q should be %q", [s, naming.kebab(s)]) if not contains(s, "{")

_quote(s) := sprintf("%q", [s]) if contains(s, "{")
