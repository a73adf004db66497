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

violations contains util.violation(item.source, _message(i, j)) if {
	some i in _involved
	item := input.pathItems[i]
	count(_indices[_keys[i]]) > 1
	j := min(_earlier(i))
}

# _earlier(i) are the candidates for the first earlier path that
# i clashes with: the first of its group whose path differs from i's once
# a query string or fragment is left out (templates named differently
# clash whatever their methods), and the first earlier path with i's bare
# path that declares one of i's methods (Amazon's
# /meetings#operation=create-attendees beside /meetings, both POST: where
# the methods differ, a server tells the requests apart). Each is found by
# lookups, not by comparing i with every member of its group: Amazon's
# specs put hundreds of paths under one bare path.
_earlier(i) := {j | j := _first_other(i); j < i} | {k |
	some m in input.pathItems[i].methods
	k := _by_method[[_bare[i], m]][0]
	k < i
}

# Functions take the position alone: a group passed as an argument would
# be hashed at every call.
_first_other(i) := first if {
	first := _indices[_keys[i]][0]
	_bare[first] != _bare[i]
}

_first_other(i) := _second_bare[_keys[i]] if _bare[_indices[_keys[i]][0]] == _bare[i]

_message(i, j) := sprintf("path %s is the same path as %s once template names are set aside; a server cannot tell them apart", [input.pathItems[i].path, input.pathItems[j].path]) if {
	_bare[i] != _bare[j]
} else := sprintf("path %s is the same path as %s (a query string or fragment is not part of the path) and both declare %s; a server cannot tell them apart", [input.pathItems[i].path, input.pathItems[j].path, concat(", ", _shared(i, j))])

_shared(i, j) := sort([upper(m) | some m in input.pathItems[i].methods; m in input.pathItems[j].methods])

_without_query(path) := regex.replace(path, `[?#].*$`, "")

# _bare are the paths without any query string or fragment, and _keys
# the same with templates reduced to "{}", both in the order of
# input.pathItems. Nearly every API writes no "?" or "#" in any path,
# found with one search of them all joined: the paths are then their own
# bare paths, with no regular expression applied to each.
_paths := [item.path | some item in input.pathItems]

_bare := _paths if {
	joined := concat("", _paths)
	not contains(joined, "?")
	not contains(joined, "#")
} else := [_without_query(path) | some path in _paths]

_keys := [regex.replace(b, `\{[^{}]*\}`, "{}") | some b in _bare]

# _involved are the positions, in order, of the paths whose key another
# path has: only they can clash, and only their groups are built (most
# APIs have none), the repeats found in one call.
_involved := sort({i | some pair in specgate.repeats(_keys); some i in pair})

# _indices maps each key that repeats to the positions of the paths that
# have it, in order: built once, in one pass (a partial rule looked up by
# key would be evaluated again for every lookup).
_indices := specgate.group([[_keys[i], i] | some i in _involved])

# _second_bare maps a key to the first of its paths whose bare path
# differs from its first path's, for the keys that have one: a complete
# value, computed once (a partial rule would scan the group at each lookup).
_second_bare := {key: others[0] |
	some key, group in _indices
	count(group) > 1
	others := [j | some j in group; _bare[j] != _bare[group[0]]]
	count(others) > 0
}

# _by_method maps a bare path and a method to the positions of the paths
# that declare it, in order, for the paths whose key repeats (paths with
# one bare path have one key).
_by_method := specgate.group([[[_bare[i], m], i] |
	some i in _involved
	some m in input.pathItems[i].methods
])
