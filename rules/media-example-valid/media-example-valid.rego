# METADATA
# title: Request, response and parameter examples match their schema
# description: |
#   The examples given for a request body, a response, a parameter or a
#   header (`example`, and the `value` of each entry of `examples`; in
#   Swagger 2.0, a response's `examples` by media type) are values their
#   schema accepts. These are the examples documentation shows first and
#   mock servers return: one that does not match teaches clients a payload
#   the API rejects, or promises a response shape it never sends.
#
#   Each example is validated as `schema-example-valid` validates schema
#   examples: with a JSON Schema validator, the named schemas its schema
#   references through local `$ref`s included, erring on the side of
#   silence where the dialects differ (references to other files,
#   `format`, a null in Swagger 2.0 and OpenAPI 3.0, `oneOf` matched
#   twice, JSON Schema 2020-12 keywords). Examples given by
#   `externalValue` are not fetched. Only JSON media types (and
#   parameters and headers) are checked: an example of a form or XML body
#   is a serialized document, not a JSON value. A reusable response,
#   request body, parameter, header or example is checked once, where it
#   is defined. The rule reports on the example.
#
#   ```yaml
#   responses:
#     "200":
#       content:
#         application/json:
#           schema: {$ref: '#/components/schemas/Pet'}   # name is required
#           example: {id: 1}                             # bad: no name
#   ```
# custom:
#   category: Responses
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas3-valid-media-example", "spectral:oas2-valid-media-example", "redocly:no-invalid-media-type-examples", "redocly:no-invalid-parameter-examples"]
#   howToFix: |
#     Correct the example to a value the schema accepts, or, if it shows
#     what the API really sends, correct the schema.
package specgate.rules["media-example-valid"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(e.path, msg) if {
	some e in _examples
	errors := correctness.example_errors(e.value, e.schema)
	count(errors) > 0
	msg := sprintf("%s does not match its schema: %s", [_what(e), correctness.errors_text(errors)])
}

# Each example records what it is an example of, as words to assemble
# only for the few that are reported: [kind, name, holder, media type].
_what(e) := sprintf("the %s example of %s", [e.of[3], _holder(e.of)]) if startswith(e.of[0], "swagger")

else := sprintf("the example of %s", [_holder(e.of)]) if e.name == ""

else := sprintf("example %q of %s", [e.name, _holder(e.of)])

_holder(["body", op, _, mt]) := sprintf("the request body of %s (%s)", [naming.operation(op), mt])

_holder(["bodies", name, _, mt]) := sprintf("request body %q (%s)", [name, mt])

_holder(["response", op, status, mt]) := sprintf("the response %s of %s (%s)", [status, naming.operation(op), mt])

_holder(["responses", name, _, mt]) := sprintf("response %q (%s)", [name, mt])

_holder(["parameter", p, _, _]) := sprintf("%s parameter %q", [p["in"], p.name])

_holder(["header", name, _, _]) := sprintf("header %q", [name])

_holder(["swagger-response", op, status, _]) := sprintf("the response %s of %s", [status, naming.operation(op)])

_holder(["swagger-responses", name, _, _]) := sprintf("response %q", [name])

_examples := array.concat(array.concat(_oas3_media, _oas3_params), _swagger) if not util.is_oas2

else := _swagger

# Where bodies and responses are written, each once: inline in
# operations, or under components.
_bodies := array.concat(
	[{"path": array.concat(op.source, ["requestBody"]), "node": op.node.requestBody, "of": ["body", op, ""]} |
		some op in correctness.operations
		is_object(op.node.requestBody)
		not health.is_ref(op.node.requestBody)
	],
	[{"path": ["components", "requestBodies", name], "node": body, "of": ["bodies", name, ""]} |
		some name, body in object.get(input.document, ["components", "requestBodies"], {})
		not health.is_ref(body)
	],
)

_responses := array.concat(
	[{"path": array.concat(op.source, ["responses", status]), "node": response, "of": ["response", op, status]} |
		some op in correctness.operations
		some status, response in object.get(op.node, "responses", {})
		is_object(response)
		not health.is_ref(response)
	],
	[{"path": ["components", "responses", name], "node": response, "of": ["responses", name, ""]} |
		some name, response in object.get(input.document, ["components", "responses"], {})
		not health.is_ref(response)
	],
)

_oas3_media := [e |
	some holder in array.concat(_bodies, _responses)
	some mt, media in object.get(holder.node, "content", {})
	_json(mt)
	is_object(media)
	some e in _media_examples(array.concat(holder.path, ["content", mt]), media, array.concat(holder.of, [mt]))
]

# _oas3_params are the examples of parameters (each distinct parameter
# once) and of headers (inline in responses, or under components).
_oas3_params := array.concat(
	[e |
		some p in input.parameters
		is_object(p.node.schema)
		some e in _media_examples(p.source, p.node, ["parameter", p, "", ""])
	],
	[e |
		some [path, header, name] in _headers
		is_object(header.schema)
		some e in _media_examples(path, header, ["header", name, "", ""])
	],
)

_headers := array.concat(
	[[array.concat(r.path, ["headers", name]), h, name] |
		some r in _responses
		some name, h in object.get(r.node, "headers", {})
		is_object(h)
		not health.is_ref(h)
	],
	[[["components", "headers", name], h, name] |
		some name, h in object.get(input.document, ["components", "headers"], {})
		is_object(h)
		not health.is_ref(h)
	],
)

# _media_examples are the examples of an object with a schema: its
# `example`, and the `value` of each entry of its `examples` (a
# referenced Example Object is checked at each use, against the schema of
# that use, and reported on the reference).
_media_examples(path, media, of) := array.concat(
	[{"path": array.concat(path, ["example"]), "value": media.example, "schema": media.schema, "of": of, "name": ""} |
		"example" in object.keys(media)
	],
	[{"path": _example_path(path, name, ex), "value": health.deref(ex).value, "schema": media.schema, "of": of, "name": name} |
		some name, ex in object.get(media, "examples", {})
		is_object(health.deref(ex))
		"value" in object.keys(health.deref(ex))
	],
)

_example_path(path, name, ex) := array.concat(path, ["examples", name]) if health.is_ref(ex)

else := array.concat(path, ["examples", name, "value"])

_json(mt) if health.base_media_type(mt) == "application/json"

_json(mt) if endswith(health.base_media_type(mt), "+json")

# Swagger 2.0: a response's examples map media types to values.
_swagger := [{"path": array.concat(r.path, ["examples", mt]), "value": value, "schema": r.node.schema, "of": array.concat(r.of, [mt]), "name": ""} |
	util.is_oas2
	some r in _swagger_responses
	is_object(r.node.schema)
	some mt, value in object.get(r.node, "examples", {})
	_json(mt)
]

_swagger_responses := array.concat(
	[{"path": array.concat(op.source, ["responses", status]), "node": response, "of": ["swagger-response", op, status]} |
		some op in input.operations
		some status, response in object.get(op.node, "responses", {})
		is_object(response)
		not health.is_ref(response)
	],
	[{"path": ["responses", name], "node": response, "of": ["swagger-responses", name, ""]} |
		some name, response in object.get(input.document, "responses", {})
		not health.is_ref(response)
	],
)
