# METADATA
# title: The page parameter has a default
# description: |
#   A `page` query parameter declares the page a client gets when it does
#   not send one (usually 1), as `default` in its schema (on the parameter
#   itself in Swagger 2.0).
#
#   The page parameter is a query parameter named `page`, compared without
#   case (`Page` counts). A `page` typed as a string is an opaque page
#   token (a cursor, as in Stripe's and OpenAI's APIs), not a page number:
#   this rule leaves it alone.
#
#   Parameters are taken from the operations under `paths`, path-item
#   parameters included. A parameter shared by several operations (a
#   component, or one declared on the path item) is reported once, at the
#   place it is written; the message names the first operation that uses it
#   and how many others share it.
#
#   ```yaml
#   # bad
#   - name: page
#     in: query
#     schema: {type: integer, minimum: 1}
#   # good
#   - name: page
#     in: query
#     schema: {type: integer, minimum: 1, default: 1}
#   ```
# custom:
#   category: Pagination
#   maturity: Silver
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Add `default: 1` (or the number of the first page) to the schema of
#     the page parameter.
package specgate.rules["page-default-value-defined"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(pagination.schema_path(p), msg) if {
	some p in pagination.query_parameters({"page"})
	not pagination.page_token(p)
	not _has_default(p.schema)
	msg := sprintf("%s must declare a default value in its schema", [pagination.subject(p)])
}

_has_default(s) if "default" in object.keys(s)
