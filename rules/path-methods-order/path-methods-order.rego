# METADATA
# title: Operations of a path are listed in one method order
# description: |
#   The operations of each path item are written in the same method order:
#   `get`, `head`, `post`, `put`, `patch`, `delete`, `options`, `query`,
#   `trace` (reading before creating, updating and deleting). Reference
#   documentation shows operations in the order they are written, so one
#   order across the API lets readers find an operation in the same place
#   under every path, and reviews of a new path compare like with like.
#
#   The path items under `paths` are checked, as written (a path item
#   written as a `$ref` is checked at its target). Methods that are in
#   order are not reported; each method that comes after one that should
#   follow it is, on its key.
#
#   ```yaml
#   /pets/{petId}:
#     delete: …
#     get: …        # bad: get comes before delete
#   ```
# custom:
#   category: Documentation
#   maturity: Platinum
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["redocly:path-http-verbs-order"]
#   howToFix: |
#     Reorder the operations of the path item: get, head, post, put, patch,
#     delete, options, query, trace.
package specgate.rules["path-methods-order"]

import data.specgate.lib.util

_order := ["get", "head", "post", "put", "patch", "delete", "options", "query", "trace"]

_rank := {m: i | some i, m in _order}

violations contains util.violation(array.concat(item.source, [later]), msg) if {
	some item in input.pathItems
	count(item.methods) > 1
	written := [k | some k in specgate.object_keys("", item.source); _rank[k]]
	some i, later in written
	i > 0
	earlier := written[i - 1]
	_rank[later] < _rank[earlier]
	msg := sprintf("%s %s is written after %s; list the operations of a path as get, head, post, put, patch, delete, options, query, trace", [upper(later), item.path, upper(earlier)])
}
