# METADATA
# description: |
#   Helpers of the health rules: which operations are health endpoints,
#   their first success response, its media types and its body schema.
#   The response and schema helpers (first_success, media types, local
#   $ref lookup, allOf-merged properties) are generic: the pagination
#   library reuses them rather than keeping a second copy.
package specgate.lib.health

import data.specgate.lib.util

# health_media_type is the media type of RFC draft "Health Check Response
# Format for HTTP APIs" (inadarei-api-health-check).
health_media_type := "application/health+json"

# get_operations(suffix) are the GET operations on a path that ends in
# suffix ("/health" or "/health/info") once trailing slashes are removed,
# as in the health-endpoint rule. Any prefix is allowed unless it has a
# template: "/repos/{owner}/{repo}/pages/health" is the health of one
# resource, not of the service. Both suffixes contain "/health", so one
# pass over the operations keeps the few candidates.
get_operations(suffix) := [op |
	some op in _health_gets
	path := util.normalize_path(op.path)
	endswith(path, suffix)
	not contains(substring(path, 0, count(path) - count(suffix)), "{")
]

_health_gets := [op |
	some op in input.operations
	op.method == "get"
	contains(op.path, "/health")
]

# endpoints are both kinds of health endpoints.
endpoints := array.concat(get_operations("/health"), get_operations("/health/info"))

# first_success(op) is the response a client gets on success: the lowest
# numeric 2xx status (200 before 204), else a 2XX range. Undefined when the
# operation has neither.
first_success(op) := resp if {
	codes := {r.status | some r in op.responses; regex.match(`^2[0-9][0-9]$`, r.status)}
	count(codes) > 0
	resp := [r | some r in op.responses; r.status == min(codes)][0]
} else := resp if {
	resp := [r | some r in op.responses; upper(r.status) == "2XX"][0]
}

# base_media_type drops parameters and case: "Application/JSON; charset=utf-8"
# is "application/json".
base_media_type(mt) := lower(trim_space(split(mt, ";")[0]))

# media_types(op, resp) are the media types a response declares. A Swagger
# 2.0 response without a schema has no content in the input, so the
# operation's (else the document's) `produces` stands in for it.
media_types(op, resp) := [mt.mediaType | some mt in resp.content] if count(resp.content) > 0

else := object.get(op.node, "produces", object.get(input.document, "produces", [])) if util.is_oas2

else := []

# body(resp) is the media type whose schema describes a health response:
# application/health+json when it has a schema, else the first media type
# with a schema. Undefined when no media type has a schema.
body(resp) := mt if {
	mt := [m | some m in resp.content; base_media_type(m.mediaType) == health_media_type; m.schema != null][0]
} else := mt if {
	mt := [m | some m in resp.content; m.schema != null][0]
}

# ref_target(ref) is the value a local reference such as
# "#/components/schemas/Health" or "#/definitions/Health" points at, read
# from the entry document by its JSON pointer. (input.schemas is not used:
# a named schema first reached through a $ref from an earlier named schema
# is listed there without its name.) References to other files, and
# targets that are themselves references, are undefined: rules then say
# nothing rather than guess.
ref_target(ref) := target if {
	target := object.get(input.document, util.ref_path(ref), null)
	is_object(target)
	not is_ref(target)
}


# deref(s) is the schema a $ref object points at, else s itself. Schemas in
# the input are dereferenced one level; subschemas inside them are not.
deref(s) := ref_target(s["$ref"]) if is_ref(s)

else := s

# resolved(s) holds unless s is a $ref that ref_target cannot follow.
resolved(s) if not is_ref(s)

resolved(s) if ref_target(s["$ref"])

# is_ref(s) holds for a $ref object. (A negated call such as
# `not is_string(s["$ref"])` would fail, not succeed, when s has no $ref:
# OPA evaluates the argument outside the negation.)
is_ref(s) if is_string(s["$ref"])

# parts(schema) are the schema and its allOf members, members behind local
# $refs resolved. One level only: allOf inside a member is not followed.
parts(schema) := array.concat([schema], [deref(m) | some m in object.get(schema, "allOf", [])]) if is_object(schema)

else := []

# complete(schema) holds when every allOf member can be read, so that a
# property missing from properties(schema) is really missing.
complete(schema) if {
	is_object(schema)
	every m in object.get(schema, "allOf", []) {
		resolved(m)
	}
}

# properties(schema) are the property names declared by the schema and its
# allOf members.
properties(schema) := {name | some [name, _] in property_schemas(schema)}

# property_schemas(schema) are [name, subschema] pairs of those properties,
# subschemas as written (possibly $ref objects). A name declared by several
# members (a refinement) appears once per member.
property_schemas(schema) := {[name, prop] |
	some part in parts(schema)
	is_object(part)
	some name, prop in object.get(part, "properties", {})
}

# required(schema) are the names the schema and its allOf members require.
required(schema) := {name |
	some part in parts(schema)
	is_object(part)
	some name in object.get(part, "required", [])
}

# at(schema, source, key) is the path of key in a schema written at source
# when the schema itself has that key, else the path of the schema.
at(schema, source, key) := array.concat(source, [key]) if key in object.keys(schema)

else := source

# bodies(suffix) are the success bodies of the health endpoints ending in
# suffix: the operation, its first 2xx response, and the media type chosen
# by body (null when no media type has a schema).
bodies(suffix) := {{"op": op, "response": resp, "body": _body_or_null(resp)} |
	some op in get_operations(suffix)
	resp := first_success(op)
}

_body_or_null(resp) := b if {
	b := body(resp)
} else := null

_purpose := {
	"status": "whether the service is up (pass, fail or warn)",
	"checks": "the state of each dependency the service checks",
}

_describe(b) := sprintf("GET %s response %s (%s)", [b.op.path, b.response.status, b.body.mediaType])

# missing_property(suffix, name) are [path, message] pairs for health
# success responses whose schema lacks the property name, or that have no
# schema at all (then nothing tells it either).
missing_property(suffix, name) := _no_schema(suffix, name) | _no_property(suffix, name)

_no_schema(suffix, name) := {[b.response.source, msg] |
	some b in bodies(suffix)
	b.body == null
	msg := sprintf("GET %s response %s has no schema; describe a body with a %q property telling %s", [b.op.path, b.response.status, name, _purpose[name]])
}

_no_property(suffix, name) := {[at(b.body.schema, b.body.schemaSource, "properties"), msg] |
	some b in bodies(suffix)
	b.body != null
	complete(b.body.schema)
	not name in properties(b.body.schema)
	msg := sprintf("the schema of %s has no %q property; add it to tell %s", [_describe(b), name, _purpose[name]])
}

# not_required(suffix, name) are [path, message] pairs for health success
# schemas that do not list name in required (their own or an allOf
# member's). Responses without a schema are left to missing_property.
not_required(suffix, name) := {[at(b.body.schema, b.body.schemaSource, "required"), msg] |
	some b in bodies(suffix)
	b.body != null
	complete(b.body.schema)
	not name in required(b.body.schema)
	msg := sprintf("the schema of %s does not list %q in required; a health response must always carry it", [_describe(b), name])
}
