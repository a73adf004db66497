# METADATA
# title: Header names are valid HTTP field names
# description: |
#   The name of every header parameter and every response header is a valid
#   HTTP field name: a token of RFC 9110, made of letters, digits and
#   ``!#$%&'*+-.^_`|~``, without spaces, colons, slashes or other
#   characters. A header with another name cannot be sent: HTTP libraries
#   reject it and servers answer 400.
#
#   Header parameters are checked once each (inline or reusable) and
#   reported on their `name`; response headers are reported on their key,
#   once where a shared response or header is written.
#
#   ```yaml
#   headers:
#     X Rate Limit: {schema: {type: integer}}  # bad: spaces
#     X-Rate-Limit: {schema: {type: integer}}  # good
#   ```
# custom:
#   category: Parameters
#   maturity: Baseline
#   severity: error
#   family: headers
#   formats: [oas2, oas3]
#   howToFix: |
#     Rename the header with letters, digits and hyphens only, as the
#     message suggests (`X Rate Limit` becomes `X-Rate-Limit`), and update
#     the servers and clients that send or read it.
package specgate.rules["header-names-valid"]

import data.specgate.lib.style
import data.specgate.lib.util

# The parameters and response headers are those whose name is not a token
# (empty, or with a character token_pattern rejects), found in one call each
# (specgate.matching) rather than tested one by one; the parameters are
# read from input.parameters, where each is one item, not from
# style.header_parameters, a set of whole parameters that OPA orders,
# comparing them value by value, before it is iterated.
violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in specgate.matching(input.parameters, ["name"], _not_token)
	p["in"] == "header"
	not style.is_token(p.name)
	msg := sprintf("header parameter %q is not a valid HTTP header name: %s", [p.name, _why(p.name)])
}

violations contains util.violation(item.header.source, msg) if {
	some item in specgate.matching(style.response_headers, ["header", "name"], _not_token)
	not style.is_token(item.header.name)
	msg := sprintf("response header %q is not a valid HTTP header name: %s", [item.header.name, _why(item.header.name)])
}

_why("") := "it is empty"

_why(name) := sprintf("it contains %s%s", [concat(", ", style.characters_outside(name, style.token_pattern)), _hint(name)]) if name != ""

# _hint suggests joining the words with hyphens when the name is ASCII (a
# name with other letters needs a new word, not a new separator).
_hint(name) := sprintf(" (use %q)", [fixed]) if {
	regex.match(`^[\x20-\x7e]*$`, name)
	fixed := concat("-", [w | some w in regex.split("[^!#$%&'*+.^_`|~0-9A-Za-z-]+", name); w != ""])
	style.is_token(fixed)
} else := ""

# _not_token matches the names that style.token_pattern does not: the empty
# name and any with a character outside its class.
_not_token := "^$|[^!#$%&'*+.^_`|~0-9A-Za-z-]"
