# METADATA
# title: The page parameter is a positive integer
# description: |
#   A `page` query parameter is a positive integer, pages being counted
#   from 1: its schema has `type: integer` (in OpenAPI 3.1 a type list
#   containing "integer"), a lower bound of at least 1, and a `default` of
#   at least 1 when it has one. The lower bound is `minimum: 1` or more,
#   `minimum: 0` with `exclusiveMinimum: true` (Swagger 2.0, OpenAPI 3.0) or
#   `exclusiveMinimum: 0` or more (OpenAPI 3.1). A parameter that is not an
#   integer is reported for that only; otherwise a missing or low minimum
#   and a low default are reported each on their key. A default that is not
#   a number (`default: "1"`) is left to schema-default-valid, which reports
#   that it does not match the type.
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
#     schema: {type: integer, minimum: 0}
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
#     Declare `type: integer` and `minimum: 1` on the page parameter's
#     schema, with `default: 1`.
package specgate.rules["page-positive-int"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some p in pagination.query_parameters({"page"})
	not pagination.page_token(p)
	some [path, problem] in pagination.positive_int_problems(p)
	not _non_number_default(p, path)
	msg := sprintf("%s %s", [pagination.subject(p), problem])
}

# A default that is not a number (`default: "1"` of an integer) is
# schema-default-valid's finding, that it does not match its type; saying
# here that "1" is below 1 would report it twice, and wrongly.
_non_number_default(p, path) if {
	path == array.concat(p.schemaSource, ["default"])
	not is_number(p.schema["default"])
}
