# METADATA
# description: |
#   Helpers of the security rules: the values an API receives (request-side
#   schemas and Swagger 2.0 parameters, grouped by type), labels that name
#   a schema in messages, security requirements, schemes and the
#   protection of operations, responses by status and where to report on a
#   response that several operations share, and the API-wide report of an
#   omission that most operations share. Indexes are complete rules, built
#   once per evaluation for every rule that uses them.
package specgate.lib.security

import data.specgate.lib.naming
import data.specgate.lib.util

# Indexes of the input built in Go for one rule each, under the private
# input.index (docs/input.md): read through these, never by name.

# property_schemas are the entries of input.schemas written as a property,
# by the property's name: {name: [schema]}. Built in Go for
# no-password-in-response, which reads the few names like a password,
# where grouping every response schema by name cost it most of its time.
property_schemas := input.index.propertySchemas

# markup_texts are the set of title, summary and description strings
# anywhere in the document's files (examples and extensions included)
# that contain "<" or "javascript:", the only ones that can hold HTML or a
# script link. Found in Go for no-unsafe-markdown, in one pass over the
# files: a few of a large API's texts, which Rego would otherwise walk.
markup_texts := input.index.markupTexts

# Schemas.

# has_type holds when a schema declares type t, alone or in an OpenAPI 3.1
# type array.
has_type(node, t) if node.type == t

has_type(node, t) if {
	is_array(node.type)
	t in node.type
}

# received are the schema-like values the API receives, each once: {node,
# source, name}. They are the schemas that parameters and request bodies of
# operations under paths reach (not those under `not` or `if`, which test
# values) but readOnly ones, which clients do not send, plus, in Swagger
# 2.0, the non-body parameters, which carry `type`, `maxLength` and the
# like themselves. Built in Go (input.received).
received := input.received

# received_of groups `received` by the type names their schemas declare
# ("string", "integer", ...; an OpenAPI 3.1 type array counts for each of
# its types), so that a rule about strings visits strings only.
received_of := input.receivedOfType

# received_with groups `received` by the keys their nodes have, so that a
# rule about one keyword (additionalProperties, say) visits the values
# that have it, not every one.
received_with := input.receivedWith

# label(v) names an item of `received` for a message: `schema "Pet"`,
# `query parameter "limit"`, `property "name" in schema "Pet"`,
# `items of query parameter "tags"`, `the request body of POST /pets`,
# `a schema in schema "Pet"` (a composition branch, say). Each item
# carries it, built in Go (policy/input/label.go) as schema_label spells
# it, of the first request that reaches the schema where it is written in
# a response, a callback or a webhook: thousands of messages name one on a
# large API, and a call of the chain below cost more than the rest of each.
label(v) := v.label

# schema_label names any schema ({node, source, name}, as in input.schemas)
# as label does the items of `received` (specgate.schema_label,
# policy/builtins/label.go).
schema_label(v) := specgate.schema_label(object.get(v, "name", ""), v.source, _params_by_value, object.get(input, "format", ""))

# _params_by_value maps where a parameter's schema is written to the
# parameter (for Swagger 2.0 non-body parameters, the parameter itself).
# A complete object, built once: a partial object rule would be evaluated
# anew for every lookup.
_params_by_value := object.union(
	{p.schemaSource: p | some p in input.parameters},
	{p.source: p | some p in _form_data},
)

_form_data contains p if {
	util.is_oas2
	some op in input.operations
	op.requestBody != null
	some p in op.requestBody.formData
}

# Security requirements and schemes.

# schemes maps security scheme names to their input entries.
schemes := {s.name: s | some s in input.securitySchemes}

# authenticates holds when an operation's effective security requirement
# names a scheme in at least one alternative: a request may be refused for
# missing or bad credentials.
authenticates(op) if {
	op.security != null
	some alt in op.security.alternatives
	count(alt.schemes) > 0
}

# scoped holds when an alternative of the operation's requirement lists
# scopes (or, in OpenAPI 3.1+, roles): a caller may be authenticated and
# still lack the permission.
scoped(op) if {
	op.security != null
	some alt in op.security.alternatives
	some scheme in alt.schemes
	count(scheme.scopes) > 0
}

# Responses.

# responses_with(status) are [operation, response] of the operations
# under paths that describe the status, as written ("401", "4XX"), in
# order: rules about one status read it from an index of every response
# by status, built once, rather than each scanning every response.
responses_with(status) := [[input.operations[i], r] | some [i, r] in object.get(_by_status, status, [])]

# responses_at(status) are the entries of that index for the status,
# [i, response] with i in input.operations: a rule that reads the
# responses alone (their sources, their headers) iterates these, with no
# pair built for each.
responses_at(status) := object.get(_by_status, status, [])

# taking_input are the indices of the operations under paths that take
# input: parameters or a request body. Built once for the rules that ask
# what such operations describe; the lists are tested by their first item
# and the body by unification, since count() and != check that their
# operand is ground by walking it whole.
taking_input := {i | some i, op in input.operations; _ = op.parameters[0]} | {i |
	some i, op in input.operations
	body := op.requestBody
	not body = null
}

# describing(wanted) are the indices of the operations under paths that
# describe one of the statuses wanted, given as written: callers list
# both cases of a range ("4XX", "4xx"). The operations that lack them all
# are then a set difference, where a test of each operation's statuses
# took every rule a pass over a thousand operations.
describing(wanted) := {i | some s in wanted; some [i, _] in object.get(_by_status, s, [])}

# without_status(pattern) are the positions in input.operations, in
# order, of the operations under paths that describe no status (as
# written) the pattern matches, found in one call: a rule whose operations
# nearly all describe the status then reads only the few others, and
# builds no set of every operation to subtract (OPA sorts both operands of
# a set difference).
without_status(pattern) := specgate.positions_matching(input.operations, ["responses", null, "status"], pattern)[1]

# statuses_written are the statuses the operations under paths describe,
# as written, each once.
statuses_written := object.keys(_by_status)

# _by_status indexes the responses of the operations under paths by
# status, as [i, response] (i in input.operations), in order: built in Go
# by specgate.group_at, where a pair built in Rego for each response cost
# most of the rules that read it.
_by_status := specgate.group_at(input.operations, ["responses", null], "status")

# response_site is where to report on a response of an operation: a
# response written once under components.responses (or Swagger's
# responses) and shared through a local $ref is reported at its
# definition, once for all the operations that share it; any other at the
# operation's response. site_label names a site for messages.
response_site(op, r) := path if path := util.ref_path(op.node.responses[r.status]["$ref"])

else := r.source

site_label(path) := sprintf("response %s of %s %s", [path[4], upper(path[2]), path[1]]) if {
	path[3] == "responses"
	path[0] == "paths"
} else := sprintf("response %s of %s %s", [path[5], upper(path[3]), path[1]]) if {
	path[2] == "additionalOperations"
	path[0] == "paths"
} else := sprintf("response %q", [path[count(path) - 1]])


# header_named holds when a response declares a header whose name,
# compared without case, is one of names (given in lower case).
header_named(r, names) if {
	some h in r.headers
	lower(h.name) in names
}

# Transport.

# plain_http holds for a URL that starts with http:// or ws:// (any case).
plain_http(url) if regex.match(`(?i)^(http|ws)://`, url)

# loopback holds for a URL whose host is the local machine (localhost, a
# *.localhost name, 127.x.x.x, [::1] or 0.0.0.0): plain HTTP there never
# crosses a network.
loopback(url) if regex.match(`(?i)^[a-z][a-z0-9+.-]*://([^/@]*@)?(localhost|[^/:]*\.localhost|127(\.[0-9]+){3}|\[::1\]|0\.0\.0\.0)(:[0-9]+|:\{[^}]*\})?([/?#]|$)`, url)

# Protection of operations.

# unprotected_reason says why an operation can be called without
# credentials: no requirement applies to it, or every alternative of the
# one that applies is empty (`security: []`, `security: [{}]`). Undefined
# when the operation is protected.
unprotected_reason(op) := "has no security requirement, and the document declares none" if {
	op.security == null
} else := "declares an empty security requirement" if {
	own_security(op)
	_all_empty(op.security)
} else := "inherits the document's empty security requirement" if {
	_all_empty(op.security)
}

_all_empty(requirement) if every alt in requirement.alternatives {
	count(alt.schemes) == 0
}

# own_security holds when an operation writes its own `security` rather
# than inheriting the document's.
own_security(op) if _ := op.node.security

# responses_path is where a rule about an operation's missing responses
# reports: its `responses`.
responses_path(op) := array.concat(op.source, ["responses"])

# requirements are the security requirements written in the document: its
# own and those of operations under paths, webhooks and callbacks that
# declare one (an inherited requirement is the document's, listed once).
requirements contains input.security if input.security != null

requirements contains op.security if {
	some op in util.http_operations
	op.security != null
	own_security(op)
}

# defined_scopes are the scopes an OAuth 2.0 scheme defines: in any of its
# flows (OpenAPI 3), or in `scopes` (Swagger 2.0).
defined_scopes(s) := {scope | some flow in s.node.flows; some scope, _ in flow.scopes} if s.node.flows

else := {scope | some scope, _ in s.node.scopes}

# unsecured_api holds when the document declares no security requirement
# at all: neither at the top nor on any operation under paths. Rules about
# unprotected operations then report once for the API rather than once per
# operation. No operation writes its own (own_security) when none has a
# `security` key, found in one call.
unsecured_api if {
	input.security == null
	specgate.reaching(input.operations, [["security"]]) == []
}

# api_wide holds when most of several things a rule checks (operations,
# responses) fall short: the rule then reports once, on `paths`, since the
# fix is one decision for the whole API, rather than once for each. When
# only a few fall short, they are the exceptions and each is reported.
api_wide(lacking, checked) if {
	count(checked) > 1
	count(lacking) * 2 > count(checked)
}

# api_wide_path is where an API-wide finding is reported.
api_wide_path := ["paths"]

# operations_summary counts operations, given as indices of
# input.operations, for an API-wide message and names the first of them
# in the document: "12 of 14 operations that take input, such as DELETE
# /pets". One operation is named, not the thousand an API-wide finding may
# count.
operations_summary(lacking, checked, what) := sprintf("%d of %d %s, such as %s", [
	count(lacking), count(checked), what, naming.operation(input.operations[min(lacking)]),
])

# responses_summary does the same for response sites, naming the one
# whose path sorts first (a shared response under components before those
# of operations, then by path and method): one site is labelled, not the
# thousands an API-wide finding may count.
responses_summary(lacking, checked, what) := counted_summary(count(lacking), count(checked), what, min(lacking))

# counted_summary is responses_summary for a rule that counted the sites
# and found the first that falls short without building their sets.
counted_summary(lacking, checked, what, first) := sprintf("%d of %d %s, such as %s", [lacking, checked, what, site_label(first)])
