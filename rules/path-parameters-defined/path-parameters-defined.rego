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
#   in the template is reported where the parameter is written (for a
#   reusable parameter, its definition), naming the path. Only `paths` are
#   checked: webhook names and callback expressions are not paths. A path
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

violations contains util.violation(p.source, msg) if {
	some [op, _, extra] in _mismatches
	count(extra) > 0
	some p in op.parameters
	p.in == "path"
	p.name in extra
	msg := sprintf("path parameter %q is not in the path %s; add a {%s} template or remove the parameter", [p.name, op.path, p.name])
}

# _mismatches are [operation, templates without a path parameter, path
# parameters without a template] for the operations where either is not
# empty: one pass over each operation's parameters, which the views merge
# with its path item's, for both checks.
_mismatches contains [op, missing, extra] if {
	some op in input.operations
	templates := {t | some t in naming.path_templates(op.path)}
	declared := {p.name | some p in op.parameters; p.in == "path"}
	missing := templates - declared
	extra := declared - templates
	count(missing) + count(extra) > 0
}

violations contains util.violation(item.source, msg) if {
	some item in input.pathItems
	templates := naming.path_templates(item.path)
	some name in {t | some t in templates}
	count([t | some t in templates; t == name]) > 1
	msg := sprintf("path %s uses the template {%s} more than once; one path parameter cannot fill two segments", [item.path, name])
}
