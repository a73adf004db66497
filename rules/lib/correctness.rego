# METADATA
# description: |
#   Helpers of the correctness rules: every schema-like object of a
#   document (schemas, and the Swagger 2.0 parameters and headers that carry
#   type and enum themselves), the JSON types a schema admits per version,
#   how a message names a schema, the composed members of a schema, and the
#   components a document defines.
package specgate.lib.correctness

import data.specgate.lib.health
import data.specgate.lib.naming
import data.specgate.lib.util

# having(key) are the objects that hold schema keywords and have key: the
# schemas of input.schemasWith[key] plus, in Swagger 2.0, the non-body
# parameters and response headers, which carry type, enum, items and the
# like themselves. Each has node, source and name ("" unless a named
# schema). Rules go through this index rather than every schema: a large
# API has tens of thousands of schemas and few with any one keyword.
having(key) := array.concat(object.get(input.schemasWith, key, []), object.get(input, ["swaggerValuesWith", key], []))

# of_type(t) are the objects that hold schema keywords and whose type is
# or lists t, from input.schemasOfType and, in Swagger 2.0, the parameters
# and headers (input.swaggerValuesOfType).
of_type(t) := array.concat(object.get(input.schemasOfType, t, []), object.get(input, ["swaggerValuesOfType", t], []))

# operations are the operations under paths, webhooks and callbacks, as an
# array (a set would hash every operation's whole tree).
operations := array.concat(array.concat(input.operations, input.webhooks), input.callbacks)

# Indexes of the input built in Go for one rule (or two) each, under the
# private input.index (docs/input.md): read through these, never by name.

# parameter_keys are the keys of every parameter list as written,
# {"pathItems": [keys], "operations": [keys]} (one per item of
# input.pathItems and of operations), each key [in, name] with a header's
# name lower-cased, read through a local $ref; null for an entry that
# cannot be read and where there is no list. Built in Go for
# operation-parameters-unique: the lists of a large API hold thousands of
# entries, nearly all $refs, which Rego read one by one.
parameter_keys := input.index.parameterKeys

# refs_with_siblings are the items of input.refs whose object has keys
# besides $ref. Built in Go for ref-siblings, which would otherwise test
# every reference of a large API for a handful of findings.
refs_with_siblings := input.index.refsWithSiblings

# referenced_components are the entry file's reusable objects that a
# resolved $ref from outside them points at or into, by the pointer of
# their map and their name: {"#/components/schemas": {"Pet": true}}. Built
# in Go for unused-components, where Rego read every reference of
# input.refsTo and sliced its path.
referenced_components := input.index.referencedComponents

# extension_refs are the $refs written inside x- extensions of the entry
# file, {ref, path}, which the loader does not follow and input.refs does
# not list: found in Go for unused-components, since Rego would walk the
# whole document for them.
extension_refs := input.index.extensionRefs

# no_examples holds when no object of the document's files has an example
# or examples key. Found in Go in the pass that finds markup (see
# security.markup_texts), for example-value-exclusive and
# media-example-valid, which then read no media type, parameter or header
# (some of the largest APIs have no example).
no_examples if input.index.hasExamples == false

# json_types are the type names of JSON Schema.
json_types := {"string", "number", "integer", "boolean", "array", "object", "null"}

# declared_types(s) are the types a schema names in `type` (a string, or a
# list since OpenAPI 3.1), with "null" added when the schema is nullable:
# `nullable: true` in OpenAPI 3.0, `x-nullable: true` in Swagger 2.0.
# Undefined when the schema has no type.
declared_types(s) := {s.type} | _null_type(s) if is_string(s.type)

else := {t | some t in s.type; is_string(t)} | _null_type(s) if is_array(s.type)

_null_type(s) := {"null"} if s[nullable_keyword] == true

else := set()

# nullable_keyword is the key that makes a schema nullable in this version:
# `nullable` in OpenAPI 3.0, the `x-nullable` extension in Swagger 2.0, and
# none (a type list with "null") since OpenAPI 3.1.
nullable_keyword := "nullable" if is_version("3.0")

else := "x-nullable" if util.is_oas2

else := "\u0000none"

# fits_types(v, types) holds when a JSON value is of one of the JSON Schema
# types. A number with no fractional part is an integer, as JSON Schema
# says, and every integer is a number.
fits_types(v, types) if kind(v) in types

fits_types(v, types) if {
	kind(v) == "integer"
	"number" in types
}

# kind(v) is the JSON Schema type of a value, "integer" for whole numbers.
kind(v) := "string" if is_string(v)

else := "integer" if {
	is_number(v)
	v == round(v)
} else := "number" if is_number(v)

else := "boolean" if is_boolean(v)

else := "object" if is_object(v)

else := "array" if is_array(v)

else := "null"

# type_of(v) names the JSON type of a value for messages.
type_of(v) := "an integer" if {
	is_number(v)
	v == round(v)
} else := "a number" if is_number(v)

else := "a string" if is_string(v)

else := "a boolean" if is_boolean(v)

else := "an array" if is_array(v)

else := "an object" if is_object(v)

else := "null"

# types_text names a set of types in messages: "string", "integer or null".
types_text(types) := concat(" or ", sort(types))

# is_version(prefix) holds for OpenAPI documents whose version starts with
# prefix ("3.0", "3.1", "3.2").
is_version(prefix) if {
	input.format == "openapi"
	startswith(input.version, prefix)
}

# oas31_or_later holds for OpenAPI 3.1 and later, whose schemas are JSON
# Schema 2020-12.
oas31_or_later if {
	input.format == "openapi"
	not startswith(input.version, "3.0")
}

# describe(s) names a schema in messages by where it is written:
# `schema "Pet"`, `property "tags" of schema "Pet"`, `items of the response
# 200 of GET /pets (application/json)`, or a JSON pointer when the place
# has no better name.
describe(s) := where(s.source)

# where(source) names the place a schema path leads to: the longest known
# anchor (a named schema, a body, a parameter, a header) followed by the
# keywords that lead from it to the schema, or its JSON pointer
# (specgate.schema_place, policy/builtins/place.go). An input without a
# document (a test's) names parameters "".
where(source) := text if {
	text := specgate.schema_place(source, input.document, input.format)
} else := specgate.schema_place(source, null, object.get(input, "format", ""))

# pointer renders a path as a JSON pointer.
pointer(source) := concat("", [sprintf("/%s", [_escape(seg)]) | some seg in source])

_escape(seg) := util.escape(seg) if is_string(seg)

else := sprintf("%v", [seg])

# members(s, keyword) are the members of an allOf, anyOf or oneOf of s, each
# dereferenced when it is a local $ref (else as written).
members(s, keyword) := [health.deref(m) | some m in object.get(s, keyword, [])]

# own_properties(s) are the property names a schema declares itself.
own_properties(s) := {name | some name, _ in object.get(s, "properties", {})}

# component_kinds are the maps of reusable objects under components, with
# the words messages use for one of their entries.
component_kinds := {
	"schemas": "schema",
	"responses": "response",
	"parameters": "parameter",
	"examples": "example",
	"requestBodies": "request body",
	"headers": "header",
	"securitySchemes": "security scheme",
	"links": "link",
	"callbacks": "callback",
	"pathItems": "path item",
	"mediaTypes": "media type",
}

# composed(s) are the allOf, anyOf and oneOf members of a schema, as
# written.
composed(s) := [m |
	some k in ["allOf", "anyOf", "oneOf"]
	some m in object.get(s, k, [])
]

# expand(s) is a member as written and, when it is a local $ref, its
# target (OpenAPI 3.1 lets keywords stand beside $ref, so both count).
# A reference that cannot be followed leaves the member alone.
expand(m) := [m, health.ref_target(m["$ref"])] if health.is_ref(m)

else := [m]

_expanded(list) := [e | some m in list; some e in expand(m)]

# family(s) is a schema with the schemas its allOf, anyOf and oneOf
# members lead to, three levels deep, $refs followed. family_complete(s)
# holds when nothing is missing from it: every $ref could be followed and
# the third level composes nothing further.
family(s) := array.concat(array.concat([s], l1), array.concat(l2, l3)) if {
	l1 := _expanded(composed(s))
	l2 := _expanded([m | some x in l1; some m in composed(x)])
	l3 := _expanded([m | some x in l2; some m in composed(x)])
}

family_complete(s) if {
	l1 := [m | some m in composed(s)]
	every m in l1 {
		health.resolved(m)
	}
	l2 := [m | some x in _expanded(l1); some m in composed(x)]
	every m in l2 {
		health.resolved(m)
	}
	l3 := [m | some x in _expanded(l2); some m in composed(x)]
	every m in l3 {
		health.resolved(m)
		count(composed(health.deref(m))) == 0
	}
}

# family_properties(s) are the property names a schema and its family
# declare.
family_properties(s) := {name |
	some x in family(s)
	is_object(x)
	some name, _ in object.get(x, "properties", {})
}

# allof_required(s) are the names a schema and its allOf members (three
# levels deep, local $refs followed) require: names every valid value has.
allof_required(s) := {name |
	some x in _allof_family(s)
	is_object(x)
	some name in object.get(x, "required", [])
}

_allof_family(s) := array.concat(array.concat([s], l1), array.concat(l2, l3)) if {
	l1 := _expanded(object.get(s, "allOf", []))
	l2 := _expanded([m | some x in l1; is_object(x); some m in object.get(x, "allOf", [])])
	l3 := _expanded([m | some x in l2; is_object(x); some m in object.get(x, "allOf", [])])
}

# Example validation. An example is checked by specgate.match_example
# (JSON Schema draft 7) against its schema, whose local $refs
# ("#/components/schemas/X", "#/definitions/X") resolve in the document's
# named schemas; each named schema is compiled once per document. What
# the validator does not understand is handled conservatively: a schema
# that does not compile (a reference to another file, Swagger's `type:
# file`) is not checked; `format` is an annotation (as in JSON Schema
# 2020-12) and its errors are dropped; in Swagger 2.0 and OpenAPI 3.0 a
# null value is not reported as a type error, since `nullable`/
# `x-nullable` have no JSON Schema equivalent there; `oneOf` errors that
# only say several alternatives matched are dropped, since a
# discriminator may settle them; keywords of JSON Schema 2019-09 and
# 2020-12 that draft 7 lacks (`prefixItems`, `unevaluatedProperties`,
# `dependentRequired`, ...) are ignored.

# _named_schemas are the schemas $refs name as _ref_prefix + name.
_named_schemas := object.get(input.document, "definitions", {}) if util.is_oas2

else := object.get(input.document, ["components", "schemas"], {})

_ref_prefix := "#/definitions/" if util.is_oas2

else := "#/components/schemas/"

# schema_part(node) is the schema of a schema-like object: a Swagger 2.0
# parameter or header without the keys that are not schema keywords
# (`required: true` of a parameter is not JSON Schema's `required`).
schema_part(node) := object.remove(node, ["name", "in", "required", "allowEmptyValue", "collectionFormat"]) if {
	util.is_oas2
	is_string(node["in"])
} else := object.remove(node, ["collectionFormat"]) if util.is_oas2

else := node

# example_errors(value, node) are the reasons a value does not match a
# schema, as "at <place>: <reason>" texts; empty when it matches or when
# the schema cannot be compiled.
example_errors(value, node) := [] if _trivially_valid(value, node)

else := [text |
	[valid, errors] := specgate.match_example(value, node, _ref_prefix, _named_schemas)
	not valid
	some e in errors
	_kept(e)
	text := _error_text(e)
]

# _trivially_valid settles the most common case without the validator: a
# scalar schema with no constraint but its type (only annotations beside
# it), and a value of that type. It is written for speed: thousands of
# property examples take this path.
_trivially_valid(value, node) if {
	count(object.keys(node) - _annotations) == 1
	_scalar_fits(value, node.type)
}

_trivially_valid(null, node) if {
	count(object.keys(node) - _annotations) == 1
	node.nullable == true
	is_version("3.0")
}

_scalar_fits(value, "string") if is_string(value)

_scalar_fits(value, "number") if is_number(value)

_scalar_fits(value, "integer") if {
	is_number(value)
	value == round(value)
}

_scalar_fits(value, "boolean") if is_boolean(value)

_annotations := {"description", "title", "example", "examples", "default", "format", "readOnly", "writeOnly", "nullable", "deprecated", "externalDocs", "xml"}

# Composite errors ("must validate all/any/one of the schemas") are
# dropped: the errors of the alternatives that explain them are kept, or
# were dropped on purpose.
_kept(e) if {
	not e.type in {"format", "number_all_of", "number_any_of", "number_one_of"}
	not _null_type_error(e)
}

_null_type_error(e) if {
	not oas31_or_later
	e.type == "invalid_type"
	endswith(e.desc, "given: null")
}

_error_text(e) := e.desc if e.field == "value"

else := sprintf("at %s: %s", [trim_prefix(e.field, "value."), e.desc])

# errors_text joins the first errors of a value for a message.
errors_text(errors) := concat("; ", array.slice(errors, 0, 3)) if count(errors) <= 3

else := sprintf("%s (and %d more)", [concat("; ", array.slice(errors, 0, 3)), count(errors) - 3])

# all_servers are the Server Objects of an OpenAPI 3 document, each once:
# the document's and those of path items, operations, webhooks and
# callbacks. Each has url, node and source; Swagger 2.0 has none (its
# host, basePath and schemes are checked as such).
all_servers := array.concat([s | some s in input.servers; s.node != null], [s |
	some s in {s | some op in operations; some s in op.servers; s.node != null; not s.source in _top_sources}
]) if not util.is_oas2

else := []

_top_sources := {s.source | some s in input.servers}

# server_variables(url) are the names of the {variables} of a server URL,
# in order, as a path's templates are read.
server_variables(url) := specgate.templates(url)

# texts_matching(pattern) are the [path, text, file] triples of the
# titles, summaries and descriptions of every file of the document that
# match a regular expression, in document order: the path within its file
# and the file ("" for the entry file). Examples, defaults, enums and
# extensions are data and are not searched. The texts are searched in Go
# (specgate.prose_matching): a large API has tens of thousands of them,
# almost never reported.
texts_matching(pattern) := specgate.prose_matching(pattern)

# at(path, file, message) is a violation at a path of the entry file, or
# of another file of the document when file is not "".
at(path, "", message) := util.violation(path, message)

at(path, file, message) := {"path": path, "message": message, "file": file} if file != ""

# written_bodies and written_responses are the request bodies and the
# responses of the document, each where it is written: inline in an
# operation, or under components (Swagger 2.0: the top-level responses),
# never through a $ref. Each has path, node and of: [kind, owner, status],
# kind "body", "bodies", "response" or "responses", owner an operation or
# a component name; messages are built from it only when needed.
written_bodies := array.concat(_bodies_of(operations), _component_bodies)

written_responses := array.concat(_responses_of(operations), _component_responses)

# bodies_reaching(paths) and responses_reaching(paths) are the items of
# written_bodies (written_responses) whose node has a value at one of the
# paths, as specgate.reaching gives them: the operations whose own body
# (responses) reach one are found first, so that a rule looking for a few
# (media types with an example) builds no item for the others (a large
# API writes tens of thousands of responses in place).
bodies_reaching(paths) := specgate.reaching(
	array.concat(
		_bodies_of(specgate.reaching(operations, [array.concat(["requestBody"], p) | some p in paths])),
		_component_bodies,
	),
	paths,
)

responses_reaching(paths) := specgate.reaching(
	array.concat(
		_responses_of(specgate.reaching(operations, [array.concat(["responses", null], p) | some p in paths])),
		_component_responses,
	),
	paths,
)

_bodies_of(ops) := [{"path": array.concat(op.source, ["requestBody"]), "node": op.node.requestBody, "of": ["body", op, ""]} |
	some op in ops
	is_object(op.node.requestBody)
	not health.is_ref(op.node.requestBody)
]

_component_bodies := [{"path": ["components", "requestBodies", name], "node": body, "of": ["bodies", name, ""]} |
	some name, body in object.get(input.document, ["components", "requestBodies"], {})
	is_object(body)
	not health.is_ref(body)
]

_responses_of(ops) := [{"path": array.concat(op.source, ["responses", status]), "node": response, "of": ["response", op, status]} |
	some op in ops
	some status, response in object.get(op.node, "responses", {})
	is_object(response)
	not health.is_ref(response)
]

_component_responses := [{"path": array.concat(_responses_home, [name]), "node": response, "of": ["responses", name, ""]} |
	some name, response in object.get(input.document, _responses_home, {})
	is_object(response)
	not health.is_ref(response)
]

_responses_home := ["responses"] if util.is_oas2

else := ["components", "responses"]

# is_json_media(mt) holds for application/json and the +json media types.
is_json_media(mt) if health.base_media_type(mt) == "application/json"

is_json_media(mt) if endswith(health.base_media_type(mt), "+json")
