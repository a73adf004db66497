# METADATA
# title: Media types are well-formed
# description: |
#   Every media type the document names is a well-formed media type or
#   media range (RFC 6838, RFC 9110): `type/subtype`, optionally with
#   parameters (`text/plain; charset=utf-8`), or a range such as `image/*`
#   and `*/*`. This covers the keys of every `content` map (request
#   bodies, responses, parameters, headers) in OpenAPI 3 and the
#   `consumes` and `produces` lists in Swagger 2.0. A malformed name
#   (`json`, `application/json/`, `application json`) matches no
#   `Content-Type` or `Accept` header, so tools cannot pick the schema of
#   a body and clients send a header servers reject.
#
#   Each place is checked once, a reusable response or body where it is
#   defined. The rule reports on the media type.
#
#   ```yaml
#   content:
#     json:                 # bad
#       schema: {type: object}
#     application/json:
#       schema: {type: object}
#   ```
# custom:
#   category: Requests
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   howToFix: |
#     Write the full media type, such as `application/json`,
#     `application/problem+json` or `text/csv; charset=utf-8`.
package specgate.rules["media-type-valid"]

import data.specgate.lib.correctness
import data.specgate.lib.util

# OpenAPI 3: the distinct media type names are judged first (an API
# repeats a few in every content map), and the places of an invalid one
# looked for then.
violations contains util.violation(array.concat(place.path, ["content", name]), msg) if {
	some name in _content_names
	not _valid(name)
	some place in _content_places
	_ = place.node.content[name]
	msg := sprintf("%q is not a media type; write type/subtype, such as application/json", [name])
}

# _content_names are the distinct names of the content maps, read from
# the maps themselves by specgate.keys_at, in one call for every place
# _content_places lists (and for responses written as a $ref, which have
# no content of their own): the places' list, an item for every response,
# is built only when a name is not a media type.
_content_names := {name |
	not util.is_oas2
	some name in array.concat(
		array.concat(
			specgate.keys_at(correctness.operations, ["node", "requestBody", "content"]),
			specgate.keys_at(correctness.operations, ["node", "responses", null, "content"]),
		),
		array.concat(
			specgate.keys_at([input.document], ["components", null, null, "content"]),
			specgate.keys_at(input.parameters, ["node", "content"]),
		),
	)
}

# Swagger 2.0: operations repeat a few lists of media types (every
# operation of a large API lists its own), so each distinct list is judged
# first, and the places of an invalid name looked for then.
violations contains util.violation(array.concat(source, [key, i]), msg) if {
	util.is_oas2
	some list in _swagger_lists
	some name in list
	not _valid(name)
	some [source, node] in _swagger_holders
	some key in ["consumes", "produces"]
	some i, written in object.get(node, key, [])
	written == name
	msg := sprintf("%q in %s is not a media type; write type/subtype, such as application/json", [name, key])
}

_swagger_holders := array.concat([[[], input.document]], [[op.source, op.node] | some op in input.operations])

# _swagger_lists are the distinct consumes and produces lists: operations
# repeat a few.
_swagger_lists := {list | some [_, node] in _swagger_holders; some key in ["consumes", "produces"]; list := node[key]; is_array(list)}


# A restricted name (RFC 6838), and parameters as RFC 9110 writes them.
_valid(name) if {
	is_string(name)
	regex.match(`^(\*/\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/(\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*))(\s*;\s*[A-Za-z0-9!#$%&'*+.^_|~-]+=("[^"]*"|[A-Za-z0-9!#$%&'*+.^_|~-]+))*\s*$`, name)
}

# _content_places are the objects that may hold a content map, each once
# where it is written, as {path, node}: request bodies and responses (the
# library's items, as they are), and the parameters and headers that have
# one (most have a schema instead, and are passed over before an item is
# made of them).
_content_places := array.concat(
	array.concat(correctness.written_bodies, correctness.written_responses),
	array.concat(
		[{"path": ["components", kind, name], "node": c} |
			some kind in ["parameters", "headers"]
			some name, c in object.get(input.document, ["components", kind], {})
			_ := c.content
		],
		[{"path": p.source, "node": p.node} | some p in input.parameters; p.component == ""; _ := p.node.content],
	),
)
