# METADATA
# title: The API names its page size one way
# description: |
#   Every page-size query parameter of the API has the name most of its
#   paginated operations use: an API that pages with `per_page` does not
#   also take `limit` or `pageSize` on a few operations. Clients write one
#   paging helper per API; a second name breaks it on exactly the
#   operations that use it.
#
#   Page-size parameters are query parameters named `page_size`,
#   `pageSize`, `per_page` or `perPage` (without case), or `limit` in a
#   paginated GET operation (see `page-size-optional`). The expected name
#   is the one, as written, that strictly more operations under `paths`
#   use than any other; on a tie nothing is reported. Each parameter with
#   another name is reported once, on its `name`, naming the first
#   operation that uses it and how many others share it.
#
#   ```yaml
#   # 40 operations take per_page
#   /repos/{id}/events:
#     get:
#       parameters:
#         - name: limit      # bad
#         - name: per_page   # good
#   ```
# custom:
#   category: Pagination
#   maturity: Gold
#   severity: warn
#   family: pagination
#   formats: [oas2, oas3]
#   howToFix: |
#     Rename the parameter to the API's page-size name; to keep existing
#     clients working, accept the old name too for a while.
package specgate.rules["page-size-name-consistent"]

import data.specgate.lib.pagination
import data.specgate.lib.util

violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in pagination.size_parameters
	p.name != _expected
	msg := sprintf("%s names the page size differently from most operations of this API, which use %q", [pagination.subject(p), _expected])
}

# _uses are [operation, name] of the page-size parameters of each
# operation, so that a shared parameter counts once per operation.
_uses contains [i, p.name] if {
	some i, op in input.operations
	some p in op.parameters
	p.source in _sources
}

_sources := {p.source | some p in pagination.size_parameters}

_counts := {name: count(uses) | some name, uses in specgate.group({[name, i] | some [i, name] in _uses})}

_expected := name if {
	some name, n in _counts
	every m in object.remove(_counts, {name}) {
		m < n
	}
}
