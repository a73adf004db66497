# METADATA
# title: The page-size parameter is a positive integer
# description: |
#   A page-size query parameter (`page_size`, `per_page`, `limit`) is a positive
#   integer: its schema has `type: integer` (in OpenAPI 3.1 a type list
#   containing "integer"), a lower bound of at least 1, and a `default` of at
#   least 1 when it has one. The lower bound is `minimum: 1` or more, `minimum:
#   0` with `exclusiveMinimum: true` (Swagger 2.0, OpenAPI 3.0) or
#   `exclusiveMinimum: 0` or more (OpenAPI 3.1). A parameter that is not an
#   integer is reported for that only; otherwise a missing or low minimum and a
#   low default are reported each on their key. A default that is not a
#   number (`default: "20"`) is left to schema-default-valid, which reports
#   that it does not match the type.
#
#   The page-size parameter is a query parameter named `page_size`,
#   `pageSize`, `per_page` or `perPage`, compared without case (`PageSize`
#   counts), or `limit` in a paginated GET operation (one that also takes
#   `offset`, `after`, `before`, `starting_after` or `ending_before`, or a
#   page, page-size or cursor parameter).
#
#   Parameters are taken from the operations under `paths`, path-item
#   parameters included. A parameter shared by several operations (a
#   component, or one declared on the path item) is reported once, at the
#   place it is written; the message names the first operation that uses it
#   and how many others share it.
#
#   ```yaml
#   # bad
#   - name: page_size
#     in: query
#     schema: {type: string}
#   # good
#   - name: page_size
#     in: query
#     schema: {type: integer, minimum: 1, default: 20}
#   ```
# custom:
#   category: Pagination
#   maturity: Silver
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Declare `type: integer` and `minimum: 1` (and a `maximum`) on the
#     page-size parameter's schema, with a default of at least 1.
package specgate.rules["page-size-positive-int"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some p in pagination.size_parameters
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
