# METADATA
# title: Operation parameters are unique
# description: |
#   A parameter list (an operation's or a path item's) declares each
#   parameter once: no two share a name and a location (`in`). A repeated
#   parameter leaves tools to pick one of the two definitions, and they do
#   not agree which. Header names are compared without case, since HTTP
#   header names are case-insensitive (`X-Request-Id` and `x-request-id`
#   are one header).
#
#   In Swagger 2.0 an operation also has at most one `in: body` parameter,
#   counting those it inherits from its path item, and never both a body
#   and `in: formData` parameters: the request has one body, either a
#   payload or a form. An operation parameter with the same name and
#   location as a path-item parameter overrides it, as the specification
#   says, and is fine. Parameters written as local `$ref`s are followed;
#   operations under `paths`, `webhooks` and `callbacks` are checked. The
#   rule reports on the repeated entry of the list.
#
#   ```yaml
#   parameters:
#     - {name: limit, in: query, schema: {type: integer}}
#     - {name: limit, in: query, schema: {type: string}}   # bad
#   ```
# custom:
#   category: Parameters
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:operation-parameters", "vacuum:operation-parameters", "redocly:operation-parameters-unique"]
#   howToFix: |
#     Remove the repeated parameter, or rename one of them if they are
#     really two different parameters. In Swagger 2.0, describe the whole
#     request payload with one `in: body` parameter, or use `in: formData`
#     parameters only.
package specgate.rules["operation-parameters-unique"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.naming
import data.specgate.lib.util

# Each entry whose key an earlier one has.
violations contains util.violation(array.concat(_source(list), [i]), msg) if {
	some list in _repeating
	some [i, first] in list.repeats
	list.keys[i] != null
	p := health.deref(list.node[i])
	msg := sprintf("%s declares %s parameter %q twice (entries %d and %d); each name and location appears once", [_owner(list), p["in"], p.name, first, i])
}

# _repeating are the parameter lists of the document, each path item's
# and each operation's, in which an entry has the key of an earlier one,
# with what owns them (where the list is, and how messages name it: see
# _source, _owner), the keys of the entries and the repeats
# (specgate.repeats: one pass per list in Go). The keys are
# correctness.parameter_keys, built in Go.
_repeating := array.concat(
	[{"node": item.node.parameters, "item": item, "keys": keys, "repeats": repeats} |
		some i, keys in correctness.parameter_keys.pathItems
		keys != null
		repeats := specgate.repeats(keys)
		count(repeats) > 0
		item := input.pathItems[i]
	],
	[{"node": op.node.parameters, "op": op, "keys": keys, "repeats": repeats} |
		some i, keys in correctness.parameter_keys.operations
		keys != null
		repeats := specgate.repeats(keys)
		count(repeats) > 0
		op := correctness.operations[i]
	],
)

_source(list) := array.concat(list.item.source, ["parameters"]) if list.item

else := array.concat(list.op.source, ["parameters"])

_owner(list) := sprintf("path %s", [list.item.path]) if list.item

else := naming.operation(list.op)

# Swagger 2.0: one body, and not with formData. The operation's own
# parameters come after the path item's that it does not override.
violations contains util.violation(at, msg) if {
	util.is_oas2
	some op in input.operations
	op.requestBody != null # the view has one for any body or formData parameter
	_may_have_payloads(op)
	_payloads(op) > 1
	bodies := [e | some e in _effective(op); e.param["in"] == "body"]
	count(bodies) > 1
	at := bodies[1].source
	msg := sprintf("%s has %d in: body parameters (%s); a request has one body", [naming.operation(op), count(bodies), concat(", ", [sprintf("%q", [e.param.name]) | some e in bodies])])
}

violations contains util.violation(form.source, msg) if {
	util.is_oas2
	some op in input.operations
	op.requestBody != null
	_may_have_payloads(op)
	_payloads(op) > 1
	entries := _effective(op)
	some body in entries
	body.param["in"] == "body"
	form := [e | some e in entries; e.param["in"] == "formData"][0]
	msg := sprintf("%s has both an in: body parameter (%q) and in: formData parameters (%q); a request body is either a payload or a form", [naming.operation(op), body.param.name, form.param.name])
}

# _may_have_payloads is a quick test for _payloads(op) > 1: the view's
# parameters of an operation are the other entries of its two lists, at
# most (overridden and unreadable ones left out), so the lists hold no more
# payloads than entries beyond them. Nearly every operation of a large API
# has one body parameter at most, which this settles without reading the
# entries: the lists are counted as the operation and its path item hold
# them, which is at least what is written where they are.
_may_have_payloads(op) if {
	count(object.get(op.node, "parameters", [])) + object.get(_item_entries, op.path, 0) - count(object.get(op, "parameters", [])) > 1
}

# _item_entries counts the parameters of each path item that lists some,
# by path.
_item_entries := {item.path: count(item.node.parameters) | some item in input.pathItems; is_array(item.node.parameters)}

# _raw_entries are the parameters listed by the path item or operation at
# owner, as written; _item(op) is where an operation's path item is.
_raw_entries(owner) := object.get(input.document, array.concat(owner, ["parameters"]), [])

_item(op) := array.slice(op.source, 0, count(op.source) - 1)

# _payloads counts the body and formData entries of an operation's list
# and of its path item's, overridden or not: both checks need two, and
# nearly every operation has one at most, which this finds without
# building the operation's effective parameters.
_payloads(op) := _payloads_of(_item(op)) + _payloads_of(op.source)

_payloads_of(owner) := count([e | some e in entries; not is_string(object.get(e, "$ref", null)); e["in"] in _payload_ins]) + count([e |
	some e in entries
	_ref_in(e["$ref"]) in _payload_ins
]) if {
	# Entries written in place and $refs counted apart: the location of a
	# $ref's target is read once per reference (_ref_in, which OPA keeps).
	entries := _raw_entries(owner)
}

_payload_ins := {"body", "formData"}

_ref_in(ref) := health.ref_target(ref)["in"]

# _effective are the parameters an operation takes, each with its source:
# the path item's that the operation does not override, then its own.
_effective(op) := array.concat(
	[e |
		some e in _entries(_item(op))
		not _overridden(e.param, own)
	],
	own,
) if {
	own := _entries(op.source)
}

_entries(owner) := [{"param": p, "source": array.concat(owner, ["parameters", i])} |
	some i, raw in _raw_entries(owner)
	p := health.deref(raw)
	is_string(p["in"])
]

_overridden(p, own) if {
	some e in own
	e.param.name == p.name
	e.param["in"] == p["in"]
}
