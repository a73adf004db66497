# METADATA
# title: Path templates and path parameters match
# description: |
#   Every `{name}` template of a path has an `in: path` parameter of that
#   name, and every `in: path` parameter appears as a template in the path.
#   A template without a parameter cannot be filled in by clients or
#   validated by servers; a path parameter without a template can never be
#   sent. Both are errors in the OpenAPI specification.
#
#   The parameters of an operation are those of its path item and its own,
#   merged (an operation parameter overrides a path-item parameter with the
#   same name and location). Names are compared exactly, so `{userId}` and
#   `userid` do not match. A template without a parameter is reported once
#   per operation and name, on the operation. A path parameter that is not
#   in the template is reported once, where the parameter is written (for a
#   reusable parameter, its definition), naming the paths it is not in.
#   Only `paths` are checked: webhook names and callback expressions are
#   not paths. A path
#   that uses the same template twice (`/users/{id}/friends/{id}`) is
#   reported on its key: both segments would get the one parameter's value.
#   An empty template `{}` is left to `path-declarations-must-exist`, and
#   that path parameters must be `required: true` to
#   `path-parameters-required`.
#
#   ```yaml
#   paths:
#     /users/{userId}:
#       get:            # bad: no path parameter "userId"
#         parameters:
#           - name: id  # bad: /users/{userId} has no {id}
#             in: path
#             required: true
#   ```
# custom:
#   category: Parameters
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:path-params", "spectral:path-params", "redocly:path-parameters-defined", "redocly:path-params-defined"]
#   howToFix: |
#     Declare an `in: path`, `required: true` parameter for every template,
#     on the path item (shared by its operations) or on each operation, and
#     spell its name exactly as the template does; remove path parameters
#     that the path does not use, or add their template to the path.
package specgate.rules["path-parameters-defined"]

import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(op.source, msg) if {
	some [op, missing, _] in _mismatches
	some name in missing
	trim_space(name) != ""
	msg := sprintf("%s has no path parameter %q for the {%s} template of its path", [naming.operation(op), name, name])
}

# A parameter that several paths share (a reusable one, or a path item's)
# is reported once, where it is written, naming the paths it is not in.
violations contains util.violation(source, msg) if {
	some source, uses in _extra_uses
	name := uses[0][1]
	paths := _in_order([path | some [path, _] in uses])
	msg := sprintf("path parameter %q is not in %s; add a {%s} template or remove the parameter", [name, _paths_text(paths), name])
}

_extra_uses := specgate.group([[p.source, [op.path, p.name]] |
	some [op, _, extra] in _mismatches
	count(extra) > 0
	some p in op.parameters
	p.in == "path"
	p.name in extra
])

# _in_order keeps the first of each path, in order.
_in_order(paths) := [path | some i, path in paths; not path in array.slice(paths, 0, i)]

_paths_text([path]) := sprintf("the path %s", [path])

_paths_text(paths) := sprintf("the paths %s and %s", [concat(", ", array.slice(paths, 0, count(paths) - 1)), paths[count(paths) - 1]]) if {
	count(paths) > 1
	count(paths) <= 4
}

_paths_text(paths) := sprintf("the paths %s and %d others", [concat(", ", array.slice(paths, 0, 3)), count(paths) - 3]) if count(paths) > 4

# _mismatches are [operation, templates without a path parameter, path
# parameters without a template] for the operations where either is not
# empty, in order: one pass over each operation's parameters, which the
# views merge with its path item's, for both checks. The templates and
# path parameters are compared as lists first, then sorted, which settles
# the operations that match (nearly all, most declaring their parameters
# in the path's order) without sorting, or building and hashing two sets;
# the sets are built for the others, where repeated names can still make
# them equal.
_mismatches := [[op, missing, extra] |
	some op in input.operations
	names := specgate.templates(op.path)
	names_declared := [p.name | some p in op.parameters; p.in == "path"]
	names != names_declared
	sort(names) != sort(names_declared)
	templates := {t | some t in names}
	declared := {n | some n in names_declared}
	missing := templates - declared
	extra := declared - templates
	count(missing) + count(extra) > 0
]

violations contains util.violation(item.source, msg) if {
	some item in input.pathItems
	templates := specgate.templates(item.path)
	some i, name in templates
	i > 0
	name in array.slice(templates, 0, i)
	msg := sprintf("path %s uses the template {%s} more than once; one path parameter cannot fill two segments", [item.path, name])
}
