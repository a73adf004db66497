# METADATA
# title: Message headers are an object schema
# description: |
#   The `headers` of a message (or of a message trait) describe a map of
#   header names to values, so their schema has `type: object`; AsyncAPI
#   requires it. A headers schema of another type, or without a type,
#   describes values no protocol can carry as headers, and code generators
#   cannot turn it into a headers structure.
#
#   Schemas written in a JSON Schema format are checked (AsyncAPI 3
#   multi-format schemas in Avro, RAML or Protobuf are not); a headers
#   schema given as a `$ref` is checked at its target, and one without a
#   type is accepted when it combines other schemas (`allOf`, `anyOf`,
#   `oneOf`). The rule reports on `type`, or on the headers schema when it
#   has none.
#
#   ```yaml
#   components:
#     messages:
#       userSignedUp:
#         headers:
#           type: string                   # bad: headers are a map
#       userDeleted:
#         headers:
#           type: object                   # good
#           properties:
#             correlationId: {type: string}
#   ```
# custom:
#   category: Messages
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-headers-schema-type-object", "spectral:asyncapi-3-headers-schema-type-object", "vacuum:asyncapi-3-headers-schema-type-object"]
#   howToFix: |
#     Write the headers as `type: object` with one property per header.
package specgate.rules["asyncapi-headers-schema-type-object"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

# _headers are the readable headers schemas of messages and message
# traits: {"schema", "source", "owner"}.
_headers contains h if {
	some m in input.messages
	h := _schema(m.node, m.source, asyncapi.message(m))
}

_headers contains h if {
	some t in asyncapi.traits
	t.kind == "messageTraits"
	h := _schema(t.value, t.source, t.owner)
}

_schema(node, source, owner) := {"schema": s, "source": array.concat(source, ["headers"]), "owner": owner} if {
	s := asyncapi.deref(node.headers)
	not _multi_format(s)
}

_schema(node, source, owner) := {"schema": s, "source": array.concat(source, ["headers", "schema"]), "owner": owner} if {
	w := asyncapi.deref(node.headers)
	_multi_format(w)
	asyncapi.json_schema_format(w.schemaFormat)
	s := asyncapi.deref(w.schema)
}

_multi_format(w) if {
	asyncapi.v3
	is_string(w.schemaFormat)
	"schema" in object.keys(w)
}

violations contains util.violation(array.concat(h.source, ["type"]), msg) if {
	some h in _headers
	t := h.schema.type
	not t in {"object", ["object"]}
	msg := sprintf("the headers of %s have type %s; headers must be a schema of type object", [h.owner, json.marshal(t)])
}

violations contains util.violation(h.source, msg) if {
	some h in _headers
	is_object(h.schema)
	not "type" in object.keys(h.schema)
	not _combines(h.schema)
	msg := sprintf("the headers schema of %s has no type; declare type: object", [h.owner])
}

_combines(s) if {
	some k in ["allOf", "anyOf", "oneOf"]
	k in object.keys(s)
}
