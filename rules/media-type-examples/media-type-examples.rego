# METADATA
# title: Request and response bodies have examples
# description: |
#   Every request and response body that has a schema comes with an
#   example: in OpenAPI 3 an `example` or `examples` on the media type or
#   its schema; in Swagger 2.0 an `example` on the schema, or, for a
#   response, an entry of its `examples`. Mock servers answer from
#   examples, contract tests send them, and documentation shows them; a
#   body without one leaves readers to assemble a valid payload from the
#   schema by hand.
#
#   The schema counts when it or, for an array, its `items` has an
#   example, following one local `$ref`. Only structured bodies are
#   reported: a body whose schema is a string, a number, a boolean or null
#   (files included) is clear from its schema and easy to generate, and
#   media types without a schema, the bodies of 204 and 304 responses and
#   of HEAD responses are not reported.
#   Operations under `paths`, `webhooks` and `callbacks` are checked. The
#   rule reports on the media type (Swagger 2.0: on the schema), once where
#   a shared response or request body is written.
#
#   ```yaml
#   responses:
#     "200":
#       content:
#         application/json:
#           schema: {$ref: "#/components/schemas/Pet"}   # bad: no example
#           example: {id: 7, name: Rex}                  # good
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas3-missing-example"]
#   howToFix: |
#     Add an `example` with a realistic payload to the media type, or
#     several named `examples` for distinct cases (Swagger 2.0: an `example`
#     on the schema, or the response's `examples` keyed by media type).
package specgate.rules["media-type-examples"]

import data.specgate.lib.health
import data.specgate.lib.style
import data.specgate.lib.util

# violations is a list, built in comprehensions: a large API has tens of
# thousands of bodies without an example, and a set's hashing and ordering
# of each finding cost more than the finding (the linter drops repeats).
violations := array.concat(_bodies, _responses) if not util.is_oas2

violations := array.concat(_swagger_bodies, _swagger_responses) if util.is_oas2

# OpenAPI 3: one finding per media type.
_bodies := [{"path": array.concat(use.at, ["content", mt.mediaType]), "message": concat("", [use.name, " has no example for ", mt.mediaType])} |
	some use in style.request_body_uses
	some mt in use.requestBody.content
	_lacks_example(mt.schema)
	not _media_example(mt.node)
]

_responses := [{"path": array.concat(use.at, ["content", mt.mediaType]), "message": concat("", [use.name, " has no example for ", mt.mediaType])} |
	some use in _response_uses
	some mt in use.response.content
	_lacks_example(mt.schema)
	not _media_example(mt.node)
]

# Swagger 2.0: one finding per body parameter or response schema.
_swagger_bodies := [{"path": array.concat(mt.source, ["schema"]), "message": concat("", [use.name, " has no example"])} |
	some use in style.request_body_uses
	mt := use.requestBody.content[0]
	_lacks_example(mt.schema)
]

_swagger_responses := [{"path": array.concat(use.at, ["schema"]), "message": concat("", [use.name, " has no example"])} |
	some use in _response_uses
	resp := use.response
	_lacks_example(resp.content[0].schema) # every media type a response produces has its schema
	not _swagger_example(resp)
]

# _response_uses are the response uses that can have a body: the bodies
# of 204 and 304 responses and of HEAD responses are empty. Two calls set
# the others aside, where a test of each use in Rego costs more; a use
# whose operation has no method is set aside too.
_response_uses := specgate.partition_at(
	specgate.partition_at(style.response_uses, ["op", "method"], "head", {"head"})[1],
	["response", "status"], "", {"204", "304"},
)[1]

# _lacks_example holds for a structured schema (not a scalar, not a file)
# that has no example of its own. It is computed once per schema (true or
# false, both kept by OPA's function cache): many responses share a
# schema, and in Swagger 2.0 every media type a response produces has the
# response's schema. The bodies are tested with it first, and without a
# wrapper per media type: a call costs OPA more than the test itself.
_lacks_example(schema) := true if {
	is_object(schema)
	health.resolved(schema)
	s := health.deref(schema)
	not _scalar(s)
	not _schema_example(s)
} else := false

# _scalar holds for a schema typed as strings, numbers, booleans or null
# only, which includes files (format binary, contentEncoding).
_scalar(s) if s.type in _scalar_types

_scalar(s) if {
	is_array(s.type)
	count(s.type) > 0
	every t in s.type {
		t in _scalar_types
	}
}

_scalar_types := {"string", "integer", "number", "boolean", "null"}

_schema_example(s) if _has_example(s)

_schema_example(s) if {
	is_object(s.items)
	health.resolved(s.items)
	_has_example(health.deref(s.items))
}

# An example that is null or false counts: `_ = x` holds for any value.
_has_example(s) if _ = s.example

_has_example(s) if count(s.examples) > 0

_media_example(node) if _ = node.example

_media_example(node) if count(node.examples) > 0

# _swagger_example holds when a response has an example for a media type
# it produces.
_swagger_example(resp) if {
	examples := resp.node.examples # most responses have none: no media type is read then
	some mt in resp.content
	_ = examples[mt.mediaType]
}
