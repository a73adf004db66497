# METADATA
# title: Arazzo parameter lists name each parameter once
# description: |
#   A workflow's or a step's `parameters` list each parameter (a name in a
#   location) once. A parameter listed twice is sent once, with the later
#   value (so the earlier entry is dead text that readers take for what is
#   sent). A reusable parameter (`reference: $components.parameters.page`)
#   counts under the name and location of its component, and header names
#   compare without case. A step's parameter that replaces its workflow's
#   of the same name is not a repeat: that is how a step overrides one.
#
#   The rule reports on each later entry, naming the first.
#
#   ```yaml
#   parameters:
#     - {name: page, in: query, value: 1}
#     - reference: $components.parameters.page   # bad: page is listed above
#       value: 2
#   ```
# custom:
#   category: Workflows
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [arazzo]
#   peers: ["redocly:parameters-unique"]
#   howToFix: |
#     Keep one entry per parameter, with the value that is meant.
package specgate.rules["arazzo-parameter-unique"]

import data.specgate.lib.util

violations contains util.violation(array.concat(path, [k]), msg) if {
	some [path, owner, params] in _lists
	keys := [_key(p, k) | some k, p in params]
	some [k, first] in specgate.repeats(keys)
	[where, name] := keys[k]
	msg := sprintf("%s lists %s %q twice (first as parameters[%d]); only the later value is sent", [owner, _place(where), name, first])
}

_lists contains [["workflows", i, "parameters"], sprintf("workflow %q", [w.workflowId]), w.parameters] if {
	some i, w in input.document.workflows
	is_array(w.parameters)
}

_lists contains [["workflows", i, "steps", j, "parameters"], sprintf("step %q", [s.stepId]), s.parameters] if {
	some i, w in input.document.workflows
	some j, s in w.steps
	is_array(s.parameters)
}

# _key is what identifies a parameter: its location and its name (a
# header's in lower case), those of its component for a reusable one; an
# entry that cannot be read is unique.
_key(p, k) := [where, _name(where, c.name)] if {
	is_string(p.reference)
	c := input.document.components.parameters[trim_prefix(p.reference, "$components.parameters.")]
	where := object.get(c, "in", "")
} else := [where, _name(where, p.name)] if {
	is_string(p.name)
	where := object.get(p, "in", "")
} else := ["?", k]

_name("header", name) := lower(name)

_name(where, name) := name if where != "header"

_place("") := "the input"

_place(where) := sprintf("the %s parameter", [where]) if where != ""
