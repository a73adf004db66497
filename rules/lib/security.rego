# METADATA
# description: |
#   Helpers of the security rules: the values an API receives (request-side
#   schemas and Swagger 2.0 parameters), schema types and labels for
#   messages, security requirements and schemes, responses by status and
#   where to report on a response that several operations share.
package specgate.lib.security

import data.specgate.lib.naming
import data.specgate.lib.util

# Schemas.

# has_type holds when a schema declares type t, alone or in an OpenAPI 3.1
# type array.
has_type(node, t) if node.type == t

has_type(node, t) if {
	is_array(node.type)
	t in node.type
}

# received are the schema-like values the API receives: {node, source,
# name}. They are the schemas that parameters and request bodies of
# operations under paths reach (`input.requestSchemas`: not those under
# `not` or `if`, which test values), plus, in Swagger 2.0, non-body and formData
# parameters, which carry `type`, `maxLength` and the like themselves.
# readOnly schemas are left out: clients do not send them. A list: a
# Swagger parameter shared by several operations repeats, and rules absorb
# that as identical violations.
received := array.concat(
	[s |
		some s in input.requestSchemas
		not s.node.readOnly
	],
	[{"node": p.node, "source": p.source, "name": ""} |
		util.is_oas2
		some op in input.operations
		some p in _swagger_value_params(op)
	],
)

_swagger_value_params(op) := op.parameters if op.requestBody == null

else := array.concat(op.parameters, op.requestBody.formData)

# label names a schema ({node, source, name}, as in `received` or
# input.schemas) for a message: `schema "Pet"`,
# `query parameter "limit"`, `property "name" in schema "Pet"`,
# `items of query parameter "tags"`, `the request body of POST /pets`,
# `a schema in schema "Pet"` (a composition branch, say).
label(v) := sprintf("schema %q", [v.name]) if v.name != ""

else := _param_label(p) if p := _params_by_value[v.source]

else := _with_root(sprintf("property %q", [_last(v.source)]), v.source) if _parent_key(v.source) == "properties"

else := sprintf("items of %s", [_param_label(p)]) if {
	_last(v.source) == "items"
	p := _params_by_value[array.slice(v.source, 0, count(v.source) - 1)]
} else := _with_root("array items", v.source) if _last(v.source) == "items"

else := _with_root("additional properties", v.source) if _last(v.source) == "additionalProperties"

else := root if {
	_last(v.source) == "schema"
	root := _root(v.source)
} else := _with_root("a schema", v.source)

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

_param_label(p) := sprintf("%s parameter %q", [p["in"], p.name])

_last(source) := source[count(source) - 1]

_parent_key(source) := source[count(source) - 2]

_with_root(what, source) := sprintf("%s in %s", [what, root]) if root := _root(source)

else := what

# _root names the top-level object a schema is written in. One chain of
# else: a function with several bodies would evaluate all of them.
_root(source) := sprintf("schema %q", [source[2]]) if {
	source[0] == "components"
	source[1] == "schemas"
} else := sprintf("schema %q", [source[1]]) if {
	source[0] == "definitions"
	count(source) > 2
} else := sprintf("the request body of %s %s", [upper(source[2]), source[1]]) if {
	source[0] == "paths"
	_in_body(source)
} else := sprintf("the request body %q", [source[2]]) if {
	source[0] == "components"
	source[1] == "requestBodies"
} else := sprintf("response %s of %s %s", [source[4], upper(source[2]), source[1]]) if {
	source[0] == "paths"
	source[3] == "responses"
} else := sprintf("response %q", [source[2]]) if {
	source[0] == "components"
	source[1] == "responses"
} else := sprintf("response %q", [source[1]]) if {
	source[0] == "responses"
}

_in_body(source) if source[3] == "requestBody"

_in_body(source) if {
	util.is_oas2
	source[3] == "parameters"
	source[5] == "schema"
}

# Security requirements and schemes.

# schemes maps security scheme names to their input entries.
schemes[s.name] := s if some s in input.securitySchemes

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

# has_status holds when an operation describes one of the statuses, given
# as strings ("401", "4XX", "default"); range keys compare upper-cased.
has_status(op, statuses) if {
	some r in op.responses
	upper(r.status) in statuses
}

# response_site tells where to report on a response of an operation:
# {path, label}. A response written once under components.responses (or
# Swagger's responses) and shared through a local $ref is reported at its
# definition, once for all the operations that share it; any other at the
# operation's response.
response_site(op, r) := {"path": path, "label": sprintf("response %q", [_last(path)])} if {
	ref := op.node.responses[r.status]["$ref"]
	startswith(ref, "#/")
	path := [_unescape(seg) | some seg in split(substring(ref, 2, -1), "/")]
} else := {"path": r.source, "label": sprintf("response %s of %s", [r.status, naming.operation(op)])}

_unescape(seg) := replace(replace(seg, "~1", "/"), "~0", "~")

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
# operation.
unsecured_api if {
	input.security == null
	every op in input.operations {
		not own_security(op)
	}
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

# operations_summary counts operations for an API-wide message and names
# the first: "12 of 14 operations that take input, such as DELETE /pets".
operations_summary(lacking, checked, what) := sprintf("%d of %d %s, such as %s", [
	count(lacking), count(checked), what,
	min({naming.operation(op) | some op in lacking}),
])

# responses_summary does the same for response sites.
responses_summary(lacking, checked, what) := sprintf("%d of %d %s, such as %s", [
	count(lacking), count(checked), what,
	min({site.label | some site in lacking}),
])
