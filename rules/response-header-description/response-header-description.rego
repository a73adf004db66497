# METADATA
# title: Response headers have a description
# description: |
#   Every response header has a `description` saying what its value means
#   and when it is sent. Header names are terse (`X-Rate-Limit-Remaining`,
#   `X-Request-Id`) and not every client developer knows them; the
#   description is the only place documentation can explain them.
#
#   Every response of every operation (paths, webhooks and callbacks) is
#   checked. A description made only of whitespace counts as missing. The
#   rule reports on the header, once where a shared response or header is
#   written.
#
#   ```yaml
#   headers:
#     X-Rate-Limit-Remaining:
#       schema: {type: integer}                       # bad
#     X-Rate-Limit-Remaining:
#       description: Requests left in the current hour.  # good
#       schema: {type: integer}
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   howToFix: |
#     Add a `description`: what the value means, its unit, and when the
#     header is present.
package specgate.rules["response-header-description"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(style.header_at(item.response, item.header), msg) if {
	some item in style.response_headers
	h := item.header
	is_object(h.node)
	not "$ref" in object.keys(h.node)
	style.blank(object.get(h.node, "description", ""))
	msg := sprintf("response header %q has no description", [h.name])
}
