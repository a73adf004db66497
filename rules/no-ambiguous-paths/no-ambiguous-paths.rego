# METADATA
# title: No request matches two paths
# description: |
#   No two paths with a method in common can both match one request when
#   neither is more specific than the other. `/orgs/{org}/members` and
#   `/orgs/mine/{view}` both match `/orgs/mine/members`: the first is more
#   specific in its last segment, the second in its middle one, so nothing
#   says which operation serves the request, and servers, gateways and
#   mocks each decide in their own way. (When one path is more specific in
#   every segment where they differ, as `/pets/mine` is than `/pets/{id}`,
#   OpenAPI says the concrete one matches first: that is not ambiguous.)
#
#   Paths are compared segment by segment; a segment that is one whole template
#   matches any text its parameter's schema allows: only numbers for an integer
#   or a number, only its values for an `enum`, only what a `pattern` matches,
#   so `/roles/{role_id}/teams` (an integer `role_id`) and `/roles/teams/{team}`
#   do not collide. When the operations of a path declare the parameter
#   differently, the text must be allowed by all of them; a schema behind a
#   local `$ref` is followed. A segment that mixes text and templates
#   (`{base}...{head}`) is compared as text with another such segment; facing a
#   whole template, neither is more specific (neither is concrete), so
#   `/compare/{basehead}` and `/compare/{base}...{head}` are ambiguous. Paths
#   that differ only in template names are left to `no-identical-paths`. Only
#   `paths` keys are checked.
#
#   The rule reports each path on its key, naming the earlier paths it is
#   ambiguous with and a request that matches both.
#
#   ```yaml
#   paths:
#     /orgs/{org}/members:
#       get: …
#     /orgs/mine/{view}:       # bad: GET /orgs/mine/members matches both
#       get: …
#   ```
# custom:
#   category: Structure
#   maturity: Silver
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["redocly:no-ambiguous-paths", "vacuum:no-ambiguous-paths"]
#   howToFix: |
#     Make one of the paths different in a fixed segment
#     (`/orgs/{org}/members` and `/my-orgs/{view}`), or constrain the
#     parameter that swallows the other path's text with a type, a pattern
#     or an `enum`.
package specgate.rules["no-ambiguous-paths"]

import data.specgate.lib.health
import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(_entries[later].source, msg) if {
	some later, earlier_set in _ambiguous
	earlier := sort(earlier_set)
	first := _entries[earlier[0]]
	msg := sprintf("path %s is ambiguous with %s: a request to %s matches both, and neither path is more specific", [
		_entries[later].path,
		_list([_entries[i].path | some i in earlier]),
		_example(_entries[later], first),
	])
}

# _entries are the paths with their segments as written (raw) and with
# templates reduced to "{}" (shape), in source order.
_entries := [{"path": item.path, "source": item.source, "methods": {m | some m in item.methods}, "raw": item.segments, "shape": item.shape} |
	some item in naming.path_items
]

# _key(shape, k) identifies a segment count and the first k segments.
_key(shape, k) := [count(shape), array.slice(shape, 0, k)]

# _stars maps a key to the paths that have a whole-segment template right
# after that prefix, in order. The index is built once, in one pass
# (specgate.group): a partial rule looked up by key would be evaluated
# again for every lookup, and a partial rule of sets is slow to build for
# a prefix that hundreds of paths share.
_stars := specgate.group([[_key(e.shape, k), i] |
	some i, e in _entries
	some k, s in e.shape
	s == "{}"
])

# _candidates are [a, b, k] where the paths have a method in common and
# first differ at segment k, a with a template there and b with text.
# Looking only at the first difference finds each pair once, through the
# index of templates by prefix.
# A list, not a set: each triple comes once, and OPA hashes an array of
# numbers as the sum of its numbers, so a set of thousands of index
# triples is a few long chains of collisions that cost seconds to build.
_candidates := [[a, b, k] |
	some b, eb in _entries
	some k, s in eb.shape
	s != "{}"
	some a in _stars[_key(eb.shape, k)]
	count(_entries[a].methods & eb.methods) > 0
]

# _pairs are the candidates where a's template accepts b's text, the later
# segments are compatible, and b has a template somewhere a has text: each
# path is more specific than the other somewhere. A pair may come once per
# segment; _ambiguous keeps it once.
_pairs := [[a, b] |
	some [a, b, k] in _candidates
	ea := _entries[a]
	eb := _entries[b]
	_matches(ea, k, eb, k)
	_crossing(ea, eb, k)
	every j, y in eb.shape {
		_compatible(ea, eb, j, k, ea.shape[j], y)
	}
]

# _ambiguous maps each path to the earlier paths it is ambiguous with.
_ambiguous[later] contains earlier if {
	some [a, b] in _pairs
	later := max([a, b])
	earlier := min([a, b])
}

# _crossing holds when b is less specific than a somewhere after k, or
# when a template faces a segment that mixes text and templates: neither
# is more specific there, as neither is concrete.
_crossing(ea, eb, k) if _mixed(eb.shape[k])

_crossing(ea, eb, k) if {
	some j, y in eb.shape
	j > k
	y == "{}"
	not _mixed(ea.shape[j])
	ea.shape[j] != "{}"
	_accepts(eb, j, ea.raw[j])
}

_crossing(ea, eb, k) if {
	some j, y in eb.shape
	j > k
	ea.shape[j] == "{}"
	_mixed(y)
}

_crossing(ea, eb, k) if {
	some j, y in eb.shape
	j > k
	y == "{}"
	_mixed(ea.shape[j])
}

# _mixed holds for a segment that mixes text and templates ("{}.json").
_mixed(s) if {
	s != "{}"
	contains(s, "{}")
}

_compatible(_, _, j, k, _, _) if j <= k

_compatible(_, _, j, k, x, x) if j > k

_compatible(ea, eb, j, k, "{}", y) if {
	j > k
	_matches(ea, j, eb, j)
}

_compatible(ea, eb, j, k, x, "{}") if {
	j > k
	x != "{}"
	_matches(eb, j, ea, j)
}

# _matches(e, j, other, j) holds when the template at segment j of e can
# match that segment of the other path: its text, or any text its own
# templates stand for when it mixes text and templates.
_matches(e, j, other, j) if _mixed(other.shape[j])

_matches(e, j, other, j) if {
	not _mixed(other.shape[j])
	_accepts(e, j, other.raw[j])
}

# _accepts(e, j, text) holds when the template at segment j of path e can
# match text: no schema the operations of the path declare for the
# parameter rules the text out.
_accepts(e, j, text) if {
	every s in _path_schemas(e.path, trim(e.raw[j], "{}")) {
		not _rejects(health.deref(s), text)
	}
}

# _path_schemas(path, name) are the schemas the operations of a path
# declare for its path parameter name, indexed for the paths of the
# candidates only (the whole value of a partial rule, built once).
_path_schemas(path, name) := object.get(_schema_index, [path, name], set())

_schema_index := _schemas_of_candidates

_candidate_paths := {_entries[i].path | some c in _candidates; some i in array.slice(c, 0, 2)}

_schemas_of_candidates[path][name] contains object.get(p, "schema", {}) if {
	some op in input.operations
	op.path in _candidate_paths
	path := op.path
	some p in op.parameters
	p["in"] == "path"
	name := p.name
}

# _rejects(s, text) holds when a parameter schema cannot hold text: a
# number type and text that is not a number, a boolean and text that is
# not true or false, an enum without it, or a pattern it does not match.
_rejects(s, text) if {
	_only_types(s, {"integer", "number"})
	not regex.match(`^-?[0-9]+(\.[0-9]+)?$`, text)
}

_rejects(s, text) if {
	_only_types(s, {"boolean"})
	not text in {"true", "false"}
}

_rejects(s, text) if {
	is_array(s.enum)
	not text in {_text(v) | some v in s.enum}
}

_rejects(s, text) if {
	is_string(s.pattern)
	regex.is_valid(s.pattern)
	not regex.match(s.pattern, text)
}

_only_types(s, types) if s.type in types

_only_types(s, types) if {
	is_array(s.type)
	count(s.type) > 0
	every t in s.type {
		t in types
	}
}

_text(v) := v if is_string(v)

else := sprintf("%v", [v])

_example(e1, e2) := concat("", [concat("", ["/", _pick(e1.raw[j], e2.raw[j])]) | some j, _ in e1.raw])

# _pick is the segment of the example request: text (or a segment that
# mixes text and templates) over a whole template.
_pick(x, y) := y if regex.replace(x, `\{[^{}]*\}`, "{}") == "{}"

else := x

_list(paths) := paths[0] if count(paths) == 1

else := sprintf("%s and %s", [paths[0], paths[1]]) if count(paths) == 2

else := sprintf("%s, %s and 1 other path", [paths[0], paths[1]]) if count(paths) == 3

else := sprintf("%s, %s and %d other paths", [paths[0], paths[1], count(paths) - 2])
