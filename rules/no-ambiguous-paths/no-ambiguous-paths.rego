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
	some later, earlier_list in _ambiguous
	earlier := sort(earlier_list)
	first := _entries[earlier[0]]
	msg := sprintf("path %s is ambiguous with %s: a request to %s matches both, and neither path is more specific", [
		_entries[later].path,
		_list([_entries[i].path | some i in earlier]),
		_example(_entries[later], first),
	])
}

# _entries are the paths with their segments as written (raw), in source
# order.
_entries := [{"path": item.path, "source": item.source, "raw": item.segments} |
	some item in naming.path_items
]

# _overlaps are the pairs of paths that one request may match with
# neither more specific than the other, as far as their segments say,
# each with the checks [i, j, text] that must hold for such a request to
# exist: the template at segment j of path i accepts text. Found in Go
# (specgate.path_overlaps): their segments are compared at the first one
# where their shapes differ and after it.
_overlaps := specgate.path_overlaps(naming.path_items)

# _pairs are the overlaps whose templates accept the text they face.
_pairs := [[a, b] |
	some [a, b, checks] in _overlaps
	every c in checks {
		not c in _rejected
	}
]

# _rejected are the checks that fail: a template whose parameter's schema
# rules out the text. Only the templates of a constraining schema (a
# type, an enum, a pattern) are tried; most accept any text.
_rejected contains c if {
	some [_, _, checks] in _overlaps
	some c in checks
	e := _entries[c[0]]
	[e.path, trim(e.raw[c[1]], "{}")] in _constrained
	not _accepts(c[0], c[1], c[2])
}

_constrained := {key |
	some key, schemas in _schema_index
	some s in schemas
	_constrains(health.deref(s))
}

_constrains(s) if _only_types(s, {"integer", "number", "boolean"})

_constrains(s) if is_array(s.enum)

_constrains(s) if is_string(s.pattern)

# _ambiguous maps each path to the earlier paths it is ambiguous with
# (specgate.group: a partial rule of sets keyed by position cost a
# quarter of the rule's time where thousands of pairs are ambiguous).
_ambiguous := specgate.group([[max([a, b]), min([a, b])] | some [a, b] in _pairs])

# _accepts(i, j, text) holds when the template at segment j of path i can
# match text: no schema the operations of the path declare for the
# parameter rules the text out.
_accepts(i, j, text) if {
	e := _entries[i]
	every s in _path_schemas(e.path, trim(e.raw[j], "{}")) {
		not _rejects(health.deref(s), text)
	}
}

# _path_schemas(path, name) are the schemas the operations of a path
# declare for its path parameter name, indexed for the paths whose
# templates are checked only. The index is built in one pass (specgate.group): as a
# partial rule of sets keyed by path and name it took seconds on an API
# of thousands of paths.
_path_schemas(path, name) := object.get(_schema_index, [[path, name]], [])

_schema_index := specgate.group([[[op.path, p.name], object.get(p, "schema", {})] |
	some op in input.operations
	op.path in _candidate_paths
	some p in op.parameters
	p["in"] == "path"
])

_candidate_paths := {_entries[c[0]].path | some [_, _, checks] in _overlaps; some c in checks}

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
