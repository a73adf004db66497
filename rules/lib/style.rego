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

# References written for a response, a request body or a header, read
# from the node that holds them (the input follows a $ref one level, so
# an operation's node keeps its responses as written). Undefined when the
# value is written in place.
response_ref(op, resp) := r if {
	r := op.node.responses[resp.status]["$ref"]
	is_string(r)
}

request_body_ref(op) := r if {
	r := op.node.requestBody["$ref"]
	is_string(r)
}

header_ref(resp, h) := r if {
	r := resp.node.headers[h.name]["$ref"]
	is_string(r)
}

# The places where a response, a request body or a header is written: the
# target of a local $ref (a shared definition under components), else
# where the operation writes it. A diagnostic about the value then lands
# once, where it is defined, rather than on each reference.
response_at(op, resp) := path if path := util.ref_path(response_ref(op, resp))

else := resp.source

request_body_at(op) := path if path := util.ref_path(request_body_ref(op))

else := op.requestBody.source

header_at(resp, h) := path if path := util.ref_path(header_ref(resp, h))

else := h.source

# blank(s) holds for a missing or whitespace-only text.
blank(s) if not is_string(s)

blank(s) if trim_space(s) == ""

# operations are the operations under paths, webhooks and callbacks, in
# that order (util.http_operations).
operations := util.http_operations

# response_uses are the responses of the operations under paths, webhooks
# and callbacks as {"op", "response", "name", "at"}: once per operation
# for a response written in place, once for a shared response (a $ref,
# with the first operation that uses the reference for a response). name
# is how messages name it (response_name), at where it is written
# (response_at). Rules whose finding does not depend on the operation
# iterate these rather than every operation's responses, so that a
# response shared by hundreds of operations is judged once. Built in Go
# (policy/input/uses.go): it counts each reference's users.
response_uses := input.responseUses

# request_body_uses are the request bodies of the same operations as
# {"op", "requestBody", "name", "at"}, each judged once as response_uses
# are. An index of the input (input.index, private: docs/input.md), built
# in Go for media-type-examples, which judges a body that many operations
# share once.
request_body_uses := input.index.requestBodyUses

# response_name(op, resp) names a response in messages. A response written
# as a $ref (shared by several operations) is named by its reference and
# its users, as response_uses names it, so that every operation that leads
# to it gives the same message and the linter reports it once where it is
# written.
response_name(op, resp) := _shared_names[r] if {
	r := response_ref(op, resp)
} else := sprintf("%s response %s", [naming.operation(op), resp.status])

# _shared_names maps each $ref written for a response to its name in
# response_uses.
_shared_names := {r: use.name |
	some use in response_uses
	r := response_ref(use.op, use.response)
}

# is_token(name) holds for a valid HTTP field name: a token of RFC 9110
# (letters, digits and !#$%&'*+-.^_`|~).
is_token(name) if regex.match(token_pattern, name)

token_pattern := "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"

# characters_outside(s, pattern) lists, for messages, the characters of s
# that pattern (which matches whole valid texts) rejects one by one: each
# once, in order of appearance, quoted, with whitespace named.
characters_outside(s, pattern) := [_show(c) |
	chars := split(s, "")
	some i, c in chars
	not regex.match(pattern, c)
	not c in {d | some j, d in chars; j < i}
]

_show(" ") := "a space"

_show("\t") := "a tab"

_show(c) := sprintf("%q", [c]) if not c in {" ", "\t"}

# response_headers are the headers of every response (see
# response_uses), with their operation and response.
response_headers := [{"op": use.op, "response": use.response, "header": h} |
	some use in response_uses
	some h in use.response.headers
]

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
# case alike. Tested in Go (specgate.case_of): snake_case (naming.is_snake)
# for a name with "_", then kebab-case for one with "-", then camelCase
# for one with a capital after a lower-case start, then PascalCase.
case_of(s) := specgate.case_of(s)

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

# Path templates (naming.path_items gives each path's segments and
# shape). is_template(segment) holds for a segment that is one whole template.
is_template(segment) if regex.match(`^\{[^{}]*\}$`, segment)

# servers are the servers of the document, of path items and of
# operations, each once.
servers contains s if some s in input.servers

servers contains s if {
	some op in operations
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
