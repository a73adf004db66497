# METADATA
# title: The offset parameter is a non-negative integer
# description: |
#   An `offset` (or `skip`) query parameter, the number of items to skip
#   before the page, is an integer that cannot be negative: its schema has
#   `type: integer` (in OpenAPI 3.1 a type list containing "integer"), a
#   lower bound of at least 0, and a `default` of at least 0 when it has
#   one (a default that is not a number is left to schema-default-valid,
#   which reports that it does not match the type). A negative offset has no meaning; without the bound, clients and
#   mocks may send one and servers answer it each in their own way.
#
#   The lower bound is `minimum: 0` or more, `minimum` with
#   `exclusiveMinimum: true` (Swagger 2.0, OpenAPI 3.0) or a numeric
#   `exclusiveMinimum` (OpenAPI 3.1). A parameter that is not an integer is
#   reported for that only, unless it is a string: an opaque offset token
#   (as some APIs name their cursor) is not a number. Names are compared
#   without case. Parameters are taken from the operations under `paths`,
#   path-item parameters included; a parameter shared by several
#   operations is reported once, naming the first operation that uses it
#   and how many others share it.
#
#   ```yaml
#   - name: offset
#     in: query
#     schema: {type: integer}                         # bad
#     schema: {type: integer, minimum: 0, default: 0} # good
#   ```
# custom:
#   category: Pagination
#   maturity: Silver
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Declare `type: integer` and `minimum: 0` on the offset parameter's
#     schema, with `default: 0`.
package specgate.rules["page-offset-non-negative"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some p in pagination.query_parameters({"offset", "skip"})
	not pagination.page_token(p)
	some [path, problem] in pagination.int_problems(p, 0)
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
