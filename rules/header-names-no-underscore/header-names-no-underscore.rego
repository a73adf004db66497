# METADATA
# title: Header names have no underscores
# description: |
#   No header parameter or response header has an underscore in its name.
#   An underscore is allowed by HTTP, but proxies drop such headers
#   (nginx does by default, `underscores_in_headers off`), and CGI-style
#   servers turn `-` into `_` when they pass headers on (`X-User-Id` and
#   `X_User_Id` both become `HTTP_X_USER_ID`), so the header is lost or
#   confused with another one on the way. Hyphens are the separator every
#   HTTP header uses.
#
#   Header parameters are checked once each (inline or reusable) and
#   reported on their `name`; response headers are reported on their key,
#   once where a shared response or header is written. A name that is not
#   a valid header name at all is left to `header-names-valid`.
#
#   ```yaml
#   parameters:
#     - name: X_Api_Version  # bad
#       in: header
#     - name: X-Api-Version  # good
#       in: header
#   ```
# custom:
#   category: Parameters
#   maturity: Silver
#   severity: warn
#   family: headers
#   formats: [oas2, oas3]
#   howToFix: |
#     Rename the header with hyphens instead of underscores, as the message
#     suggests, and accept the old name for a while if clients send it.
package specgate.rules["header-names-no-underscore"]

import data.specgate.lib.style
import data.specgate.lib.util

# The parameters and response headers are those whose name has an
# underscore, found in one call each (specgate.matching) rather than tested
# one by one; the parameters are read from input.parameters, where each is
# one item, not from style.header_parameters, a set of whole parameters
# that OPA orders, comparing them value by value, before it is iterated.
violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in specgate.matching(input.parameters, ["name"], "_")
	p["in"] == "header"
	_underscored(p.name)
	msg := sprintf("header parameter %q %s", [p.name, _why(p.name)])
}

violations contains util.violation(item.header.source, msg) if {
	some item in specgate.matching(style.response_headers, ["header", "name"], "_")
	_underscored(item.header.name)
	msg := sprintf("response header %q %s", [item.header.name, _why(item.header.name)])
}

_underscored(name) if {
	contains(name, "_")
	style.is_token(name)
}

_why(name) := sprintf("has an underscore, which proxies such as nginx drop by default (use %q)", [replace(name, "_", "-")])
