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
#   part of the path (`uri-names` reports them). Two paths that differ only
#   in such a query string or fragment are reported only when both declare
#   a method (Amazon's `/meetings#operation=create-attendees` and
#   `/meetings` both take POST): with different methods, a server tells
#   their requests apart. A trailing slash still makes a different path. Only `paths` keys are checked. The rule reports
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

violations contains util.violation(item.source, _message(item, input.pathItems[earlier[0]])) if {
	some i, item in input.pathItems
	group := _indices[_keys[i]]
	count(group) > 1
	earlier := [j | some j in group; j < i; _clash(input.pathItems[j], item)]
	count(earlier) > 0
}

# Paths whose templates are named differently clash whatever their methods:
# the OpenAPI specification forbids them. Paths that differ only in a query
# string or fragment (Amazon's /meetings#operation=create-attendees beside
# /meetings) clash only where both declare a method: uri-names reports the
# fragment, and where the methods differ, a server tells the requests apart
# and the fix is to merge the two keys.
_clash(a, b) if _without_query(a.path) != _without_query(b.path)

_clash(a, b) if {
	_without_query(a.path) == _without_query(b.path)
	some m in a.methods
	m in b.methods
}

_message(item, other) := sprintf("path %s is the same path as %s once template names are set aside; a server cannot tell them apart", [item.path, other.path]) if {
	_without_query(item.path) != _without_query(other.path)
} else := sprintf("path %s is the same path as %s (a query string or fragment is not part of the path) and both declare %s; a server cannot tell them apart", [item.path, other.path, concat(", ", _shared(item, other))])

_shared(a, b) := sort([upper(m) | some m in a.methods; m in b.methods])

_without_query(path) := regex.replace(path, `[?#].*$`, "")

# _keys are the paths with templates reduced to "{}" and any query string
# or fragment removed, in the order of input.pathItems.
_keys := [regex.replace(_without_query(item.path), `\{[^{}]*\}`, "{}") | some item in input.pathItems]

# _indices maps each key to the positions of the paths that have it, in
# order: built once, in one pass (a partial rule looked up by key would be
# evaluated again for every lookup).
_indices := specgate.group([[k, i] | some i, k in _keys])
