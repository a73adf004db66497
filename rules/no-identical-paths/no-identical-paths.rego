# METADATA
# title: No two paths differ only in template names
# description: |
#   No two paths are the same once the names of their templates are set
#   aside: `/pets/{petId}` and `/pets/{id}` are one path, and a server
#   cannot tell which of them a request such as `/pets/7` is for. The
#   OpenAPI specification forbids such paths ("templated paths with the same
#   hierarchy but different templated names MUST NOT exist").
#
#   Paths are compared as written, with each template (whole segment or
#   part of one, `{id}.json`) reduced to a placeholder and any query
#   string or fragment written into the key left out, since those are not
#   part of the path (`uri-names` reports them). A trailing slash still
#   makes a different path. Only `paths` keys are checked. The rule reports
#   each path that repeats an earlier one, on its key, naming the first.
#
#   ```yaml
#   paths:
#     /pets/{petId}:
#       get: …
#     /pets/{id}:        # bad: the same path as /pets/{petId}
#       delete: …
#   ```
# custom:
#   category: Structure
#   maturity: Baseline
#   severity: error
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["redocly:no-identical-paths"]
#   howToFix: |
#     Merge the operations of both paths under one path, with one name for
#     each template (`/pets/{petId}` with its `get` and `delete`).
package specgate.rules["no-identical-paths"]

import data.specgate.lib.util

violations contains util.violation(item.source, msg) if {
	some i, item in input.pathItems
	first := min(_indices[_keys[i]])
	first != i
	other := input.pathItems[first].path
	msg := sprintf("path %s is the same path as %s %s; a server cannot tell them apart", [item.path, other, _why(item.path, other)])
}

_why(a, b) := "(a query string or fragment is not part of the path)" if _without_query(a) == _without_query(b)

else := "once template names are set aside"

_without_query(path) := regex.replace(path, `[?#].*$`, "")

# _keys are the paths with templates reduced to "{}" and any query string
# or fragment removed, in the order of input.pathItems.
_keys := [regex.replace(_without_query(item.path), `\{[^{}]*\}`, "{}") | some item in input.pathItems]

# _indices maps each key to the positions of the paths that have it, in
# order: built once, in one pass (a partial rule looked up by key would be
# evaluated again for every lookup).
_indices := specgate.group([[k, i] | some i, k in _keys])
