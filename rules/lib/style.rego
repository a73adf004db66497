# METADATA
# description: |
#   Helpers of the style rules (families headers, structure, naming and
#   documentation): what is written at a place of the entry document, how
#   messages name responses that several operations share, HTTP header
#   names, the case convention an API uses for its identifiers, and the
#   shape of path templates.
package specgate.lib.style

import data.specgate.lib.naming
import data.specgate.lib.util

# written(source) is the value at source in the entry document as written,
# $refs not followed; null when there is none (the source passes through a
# $ref, or leads into another file).
written(source) := object.get(input.document, source, null)

# ref_at(source) is the $ref written at source. Undefined when the value
# there is not a reference.
ref_at(source) := r if {
	v := written(source)
	is_object(v)
	r := v["$ref"]
	is_string(r)
}

# located(source) is where the value reached at source is written: the
# target of a local $ref written there (a shared response, header or
# request body under components), else source itself. A diagnostic about
# the value then lands once, where it is defined, rather than on each
# reference.
located(source) := [_unescape(seg) | some seg in array.slice(segs, 1, count(segs))] if {
	r := ref_at(source)
	startswith(r, "#/")
	segs := split(r, "/")
} else := source

_unescape(seg) := replace(replace(seg, "~1", "/"), "~0", "~")

# blank(s) holds for a missing or whitespace-only text.
blank(s) if not is_string(s)

blank(s) if trim_space(s) == ""

# where(names) names the first of a list of operations and how many others
# share something with it: "GET /a", "GET /a and 1 other operation".
where(names) := names[0] if count(names) == 1

else := sprintf("%s and 1 other operation", [names[0]]) if count(names) == 2

else := sprintf("%s and %d other operations", [names[0], count(names) - 1])

# _ref_users maps each $ref written for a response or a request body to
# the operations that use it, in source order. Built once per evaluation,
# as the whole value of a partial rule.
_ref_users := {r: [name | some [_, name] in sort(users)] | some r, users in _ref_index}

_ref_index[r] contains [i, naming.operation(op)] if {
	some i, op in _all_operations
	some source in array.concat([resp.source | some resp in op.responses], [op.requestBody.source | op.requestBody != null])
	r := ref_at(source)
}

# _all_operations are the operations under paths, webhooks and callbacks,
# in that order.
_all_operations := array.concat(array.concat(input.operations, object.get(input, "webhooks", [])), object.get(input, "callbacks", []))

# response_name(op, resp) names a response in messages. A response written
# as a $ref (shared by several operations) is named by its reference and
# its users, so that every operation that leads to it gives the same
# message and the linter reports it once where it is written.
response_name(op, resp) := sprintf("response %s (used by %s)", [r, where(_ref_users[r])]) if {
	r := ref_at(resp.source)
} else := sprintf("%s response %s", [naming.operation(op), resp.status])

# request_body_name(op) names the request body of an operation in
# messages, by its reference and its users when it is shared.
request_body_name(op) := sprintf("request body %s (used by %s)", [r, where(_ref_users[r])]) if {
	r := ref_at(op.requestBody.source)
} else := sprintf("the request body of %s", [naming.operation(op)])

# is_token(name) holds for a valid HTTP field name: a token of RFC 9110
# (letters, digits and !#$%&'*+-.^_`|~).
is_token(name) if regex.match("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", name)

# response_headers are the headers of every response of every operation,
# with their operation and response.
response_headers contains {"op": op, "response": resp, "header": h} if {
	some op in util.http_operations
	some resp in op.responses
	some h in resp.headers
}

# header_parameters are the distinct in: header parameters.
header_parameters contains p if {
	some p in input.parameters
	p["in"] == "header"
}

# has_header(resp, names) holds when a response declares a header whose
# lower-case name is in names.
has_header(resp, names) if {
	some h in resp.headers
	lower(h.name) in names
}

# Case conventions of identifiers. case_of(s) is the convention a
# multi-word identifier is written in: "snake", "kebab", "camel" or
# "pascal"; "other" when it mixes conventions or has other characters;
# undefined for a single lower-case word, which fits snake, kebab and camel
# case alike.
case_of(s) := "snake" if {
	contains(s, "_")
	naming.is_snake(s)
} else := "kebab" if {
	contains(s, "-")
	naming.is_kebab(s)
} else := "camel" if {
	regex.match(`^[a-z][a-z0-9]*[A-Z]`, s)
	naming.is_camel(s)
} else := "pascal" if {
	is_pascal(s)
} else := "other" if {
	not regex.match(`^[a-z][a-z0-9]*$`, s)
}

is_pascal(s) if regex.match(`^[A-Z][a-zA-Z0-9]*$`, s)

# fits(s, convention) holds when s is written in the convention (a single
# lower-case word fits snake, kebab and camel case).
fits(s, "snake") if naming.is_snake(s)

fits(s, "kebab") if naming.is_kebab(s)

fits(s, "camel") if naming.is_camel(s)

fits(s, "pascal") if is_pascal(s)

convention_names := {
	"snake": "snake_case",
	"kebab": "kebab-case",
	"camel": "camelCase",
	"pascal": "PascalCase",
}

# respell(s, convention) is s written in the convention.
respell(s, "snake") := naming.snake(s)

respell(s, "kebab") := naming.kebab(s)

respell(s, "camel") := naming.camel(s)

respell(s, "pascal") := naming.pascal(s)

# dominant(counts) is the convention used by strictly more identifiers
# than any other, from an object of counts by convention (without
# "other"). Undefined on a tie or when nothing was counted.
dominant(counts) := c if {
	some c, n in counts
	n > 0
	every m in object.remove(counts, {c}) {
		m < n
	}
}

# Path templates. shape(path) is the list of segments of a path with each
# whole-segment template written as "{}" and the templates inside other
# segments as "{}" too: two paths with the same shape differ only in the
# names of their templates.
shape(path) := [regex.replace(s, `\{[^{}]*\}`, "{}") | some s in naming.path_segments(path)]

# is_template(segment) holds for a segment that is one whole template.
is_template(segment) if regex.match(`^\{[^{}]*\}$`, segment)

# servers are the servers of the document, of path items and of
# operations, each once.
servers contains s if some s in input.servers

servers contains s if {
	some op in util.http_operations
	some s in op.servers
}

# host(url) is the host of a server URL, lower case, templates kept
# ("{region}.api.example.com"); undefined for a relative URL.
host(url) := lower(m[1]) if {
	some m in regex.find_all_string_submatch_n(`^(?:[A-Za-z][A-Za-z0-9+.-]*:|\{[^{}]*\}:)?//(?:[^@/?#]*@)?([^/:?#]+)`, url, 1)
}

# named_schemas are [name, source, schema] of the schemas under
# components.schemas (Swagger 2.0: definitions), read from the document's
# keys: in input.schemas a named schema first reached through a $ref of an
# earlier one is listed at the referencing place, without its name.
named_schemas contains [name, ["definitions", name], schema] if {
	util.is_oas2
	some name, schema in input.document.definitions
}

named_schemas contains [name, ["components", "schemas", name], schema] if {
	not util.is_oas2
	some name, schema in input.document.components.schemas
}

# schema_owner(source) names, for messages, the named schema or the
# operation a schema is written in: "schema Pet", "GET /pets"; "" when it
# is elsewhere.
schema_owner(source) := sprintf("schema %s", [source[2]]) if {
	source[0] == "components"
	source[1] == "schemas"
} else := sprintf("schema %s", [source[1]]) if {
	source[0] == "definitions"
} else := sprintf("%s %s", [upper(source[2]), source[1]]) if {
	source[0] == "paths"
	source[2] in {"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}
} else := ""
