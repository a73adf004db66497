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
#   `externalValue` are not fetched, and an example of a boolean or
#   numeric parameter or header written as its text (`"true"`, `"42"`) is
#   taken as the serialized value it is. JSON media types, parameters and
#   headers are checked, and form bodies (`application/x-www-form-urlencoded`,
#   `multipart/form-data`) whose example is written as an object of fields:
#   a field's text counts as the boolean or number its schema wants, and a
#   single value of an array field as a one-item list, as a form sends
#   them. Other examples of forms, and those of XML and text bodies, are
#   serialized documents, not JSON values, and are not checked. A reusable response,
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
#   peers: ["spectral:oas3-valid-media-example", "spectral:oas2-valid-media-example", "vacuum:oas3-valid-schema-example", "redocly:no-invalid-media-type-examples", "redocly:no-invalid-parameter-examples"]
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
	not _serialized_scalar(e)
	errors := correctness.example_errors(e.value, e.schema)
	count(errors) > 0
	msg := sprintf("%s does not match its schema: %s", [_what(e), correctness.errors_text(errors)])
}

# A form body's example written as an object of its fields is checked
# field by field as the form sends them: a field's text stands for the
# boolean or number its schema wants ("true", "12.00"), and a single value
# for an array field is a one-item list (a form repeats the key).
violations contains util.violation(e.path, msg) if {
	some e in _form_examples
	errors := correctness.example_errors(_form_fields(e.value, health.deref(e.schema)), e.schema)
	count(errors) > 0
	msg := sprintf("%s does not match its schema: %s", [_what(e), correctness.errors_text(errors)])
}

_form_examples := [e |
	some [holder, mt, media] in _media_with_examples
	contains(mt, "form")
	health.base_media_type(mt) in {"application/x-www-form-urlencoded", "multipart/form-data"}
	some e in _media_examples(array.concat(holder.path, ["content", mt]), media, array.concat(holder.of, [mt]))
	is_object(e.value)
]

_form_fields(value, schema) := {name: _form_field(v, health.deref(object.get(schema, ["properties", name], {}))) | some name, v in value}

_form_field(v, field) := [_form_scalar(v, health.deref(object.get(field, "items", {})))] if {
	field.type == "array"
	not is_array(v)
} else := _form_scalar(v, field)

_form_scalar("true", field) := true if field.type == "boolean"

else := v if v := "true"

_form_scalar("false", field) := false if field.type == "boolean"

else := v if v := "false"

_form_scalar(v, field) := to_number(v) if {
	not v in {"true", "false"}
	is_string(v)
	field.type in {"integer", "number"}
	_literal(field.type, v)
} else := v if not v in {"true", "false"}

# _serialized_scalar holds for a parameter or header example written as
# the text it travels as ("true", "42") where the schema is a boolean or a
# number: the examples of parameters are often given serialized, and
# OpenAPI 3.0 and 3.1 do not say whether `value` is the data or its
# serialization (3.2 splits them into dataValue and serializedValue).
_serialized_scalar(e) if {
	e.of[0] in {"parameter", "header"}
	is_string(e.value)
	_literal(health.deref(e.schema).type, e.value)
}

_literal("boolean", v) if v in {"true", "false"}

_literal("integer", v) if regex.match(`^-?[0-9]+$`, v)

_literal("number", v) if regex.match(`^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`, v)

# Each example records what it is an example of, as words to assemble
# only for the few that are reported: [kind, name, holder, media type].
_what(e) := sprintf("the %s example of %s", [e.of[3], _holder(e.of)]) if util.is_oas2

else := sprintf("the example of %s", [_holder(e.of)]) if e.name == ""

else := sprintf("example %q of %s", [e.name, _holder(e.of)])

_holder(["body", op, _, mt]) := sprintf("the request body of %s%s", [naming.operation(op), _media(mt)])

_holder(["bodies", name, _, mt]) := sprintf("request body %q%s", [name, _media(mt)])

_holder(["response", op, status, mt]) := sprintf("the response %s of %s%s", [status, naming.operation(op), _media(mt)])

_holder(["responses", name, _, mt]) := sprintf("response %q%s", [name, _media(mt)])

_holder(["parameter", p, _, _]) := sprintf("%s parameter %q", [p["in"], p.name])

_holder(["header", name, _, _]) := sprintf("header %q", [name])

# Swagger 2.0 examples are named by media type in the message itself.
_media(_) := "" if util.is_oas2

_media(mt) := sprintf(" (%s)", [mt]) if not util.is_oas2

# An API without any example (correctness.no_examples, from one pass over its
# files in Go) has none to check: its media types, parameters and headers
# are not read.
_examples := [] if correctness.no_examples

else := array.concat(array.concat(_oas3_media, _oas3_params), _swagger) if not util.is_oas2

else := _swagger

_oas3_media := [e |
	some [holder, mt, media] in _media_with_examples
	correctness.is_json_media(mt)
	some e in _media_examples(array.concat(holder.path, ["content", mt]), media, array.concat(holder.of, [mt]))
]

# _media_with_examples are the media types of the OpenAPI 3 request bodies
# and responses (each where it is written) that have an example or
# examples, as [holder, media type, media type object]: most have none,
# and only the bodies and responses with one are read (specgate.reaching
# finds them in one pass), before any path is built.
_media_with_examples := [] if correctness.no_examples

else := [[holder, mt, media] |
	not util.is_oas2
	paths := [["content", null, "example"], ["content", null, "examples"]]
	some holder in array.concat(correctness.bodies_reaching(paths), specgate.reaching(_responses_with_examples, paths))
	some mt, media in object.get(holder.node, "content", {})
	_with_examples(media)
]

# _responses_with_examples are the responses, each where it is written,
# with an example in a media type or a header: one pass over the
# operations finds both kinds.
_responses_with_examples := correctness.responses_reaching([
	["content", null, "example"], ["content", null, "examples"],
	["headers", null, "example"], ["headers", null, "examples"],
])

# _oas3_params are the examples of parameters (each distinct parameter
# once) and of headers (inline in responses, or under components). Only
# the parameters with an example or examples are read: a large API has
# tens of thousands without.
_oas3_params := array.concat(
	[e |
		some p in specgate.reaching(input.parameters, [["example"], ["examples"]])
		is_object(p.node.schema)
		_with_examples(p.node)
		some e in _media_examples(p.source, p.node, ["parameter", p, "", ""])
	],
	[e |
		some [path, header, name] in _headers
		is_object(header.schema)
		_with_examples(header)
		some e in _media_examples(path, header, ["header", name, "", ""])
	],
)

# _headers are the headers that may have examples: those of the responses
# with a header with an example or examples, and those under components.
_headers := array.concat(
	[[array.concat(r.path, ["headers", name]), h, name] |
		some r in specgate.reaching(_responses_with_examples, [["headers", null, "example"], ["headers", null, "examples"]])
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
		_ := media.example # defined, whatever its value
	],
	[{"path": _example_path(path, name, ex), "value": health.deref(ex).value, "schema": media.schema, "of": of, "name": name} |
		some name, ex in object.get(media, "examples", {})
		is_object(health.deref(ex))
		_ := health.deref(ex).value
	],
)

# _with_examples holds for an object with an example or examples: most
# media types, parameters and headers of a large API have neither, and
# are passed over before their paths and names are built.
_with_examples(media) if _ := media.example

_with_examples(media) if _ := media.examples

_example_path(path, name, ex) := array.concat(path, ["examples", name]) if health.is_ref(ex)

else := array.concat(path, ["examples", name, "value"])

# Swagger 2.0: a response's examples map media types to values. Few
# responses have examples: the responses of operations and those under
# `responses` are read where they are written, and a path is built only
# for those with examples.
_swagger := array.concat(
	[e |
		util.is_oas2
		some op in correctness.operations
		some status, response in object.get(op.node, "responses", {})
		examples := response.examples
		some e in _swagger_examples(array.concat(op.source, ["responses", status]), response, examples, ["response", op, status])
	],
	[e |
		util.is_oas2
		some name, response in object.get(input.document, "responses", {})
		examples := response.examples
		some e in _swagger_examples(["responses", name], response, examples, ["responses", name, ""])
	],
)

_swagger_examples(path, response, examples, of) := [{"path": array.concat(path, ["examples", mt]), "value": value, "schema": response.schema, "of": array.concat(of, [mt]), "name": ""} |
	is_object(response)
	not health.is_ref(response)
	is_object(response.schema)
	some mt, value in examples
	correctness.is_json_media(mt)
]
