# METADATA
# description: |
#   Helpers of the AsyncAPI rules: the major version, local `$ref` lookup in
#   the entry document, the lists of tags and of security requirements
#   wherever AsyncAPI 2 and 3 allow them, the `{name}` expressions of channel
#   addresses and server URLs, and how a message names channels, operations,
#   messages and servers.
package specgate.lib.asyncapi

import data.specgate.lib.naming
import data.specgate.lib.util

v2 if "asyncapi2" in input.formats

v3 if "asyncapi3" in input.formats

# is_ref holds for a Reference object.
is_ref(x) if is_string(x["$ref"])

# local_ref holds for a $ref into the entry document ("#/...").
local_ref(x) if startswith(x["$ref"], "#/")

# deref is the value x stands for: x itself when it is not a $ref, else the
# target of a local $ref, following up to three in a row. A $ref to another
# file or one that does not resolve has no result, so a rule skips what it
# cannot see rather than guess.
deref(x) := x if not is_ref(x)

deref(x) := t if {
	t := target(x["$ref"])
	not is_ref(t)
}

deref(x) := t2 if {
	t := target(x["$ref"])
	t2 := target(t["$ref"])
	not is_ref(t2)
}

deref(x) := t3 if {
	t := target(x["$ref"])
	t2 := target(t["$ref"])
	t3 := target(t2["$ref"])
	not is_ref(t3)
}

# target is the value at a local JSON pointer ("#/components/schemas/a~1b").
target(ref) := v if {
	v := object.get(input.document, pointer_path(ref), null)
	v != null
}

# pointer_path splits a local $ref into the keys it names, unescaping ~1,
# ~0 and percent-encoding.
pointer_path(ref) := [_unescape(s) | some s in split(substring(ref, 2, -1), "/")] if startswith(ref, "#/")

_unescape(s) := util.unescape(_percent(s))

_percent(s) := s if not contains(s, "%")

_percent(s) := urlquery.decode(replace(s, "+", "%2B")) if contains(s, "%")

# pointer renders a source path as a JSON pointer ("/channels/a~1b") for
# messages about values that have no name.
pointer(path) := concat("", [sprintf("/%s", [_escape(s)]) | some s in path])

_escape(s) := util.escape(s) if is_string(s)

_escape(s) := sprintf("%v", [s]) if not is_string(s)

# expressions are the names written in {braces} in a channel address or a
# server URL, host or pathname, in order.
expressions(s) := naming.path_templates(s)

# address is what a channel's parameters refer to: its key in 2.x, its
# address in 3.x (absent or null when the address is not known upfront).
address(ch) := ch.id if v2

address(ch) := ch.node.address if {
	v3
	is_string(ch.node.address)
}

# address_source points at where a channel's address is written.
address_source(ch) := ch.source if v2

address_source(ch) := array.concat(ch.source, ["address"]) if v3

# server_fields are the templated location fields of a server: its url in
# 2.x, its host and pathname in 3.x, as {"field", "value"}.
server_fields(s) := {{"field": f, "value": s.node[f]} |
	some f in _location_fields
	is_string(s.node[f])
}

_location_fields := ["url"] if v2

_location_fields := ["host", "pathname"] if v3

# root_channel is the key under the root channels of the channel a local
# $ref points to ("#/channels/userSignedUp"); undefined for any other
# target.
root_channel(ref) := name if {
	["channels", name] = pointer_path(ref)
	name in object.keys(object.get(input.document, "channels", {}))
}

# channel_message_problem explains why item, an entry of the messages of
# an operation (or of its reply) on the root channel named channel, is not
# a $ref to one of that channel's messages; undefined when it is one.
channel_message_problem(owner, channel, item) := sprintf("%s lists a message written inline; point to one of the messages of channel %q with a $ref", [owner, channel]) if {
	not is_ref(item)
}

channel_message_problem(owner, channel, item) := sprintf("%s lists %q, which is not a message of its channel %q; point to #/channels/%s/messages/<name>", [owner, item["$ref"], channel, _escape(channel)]) if {
	is_ref(item)
	not _channel_message(channel, item["$ref"])
}

_channel_message(channel, ref) if {
	["channels", channel, "messages", name] = pointer_path(ref)
	name in object.keys(object.get(deref(input.document.channels[channel]), "messages", {}))
}

# trait_values are the traits of an operation or message node that can be
# read (inline or local $refs); has_unread_trait holds when one of them
# points to another file or does not resolve, so a rule about a field a
# trait may supply stays quiet.
trait_values(node) := [t | some raw in object.get(node, "traits", []); t := deref(raw)]

has_unread_trait(node) if {
	some raw in object.get(node, "traits", [])
	not deref(raw)
}

# supplies holds when the node or one of its traits sets field to a value
# that is not blank.
supplies(node, field) if trim_space(node[field]) != ""

supplies(node, field) if {
	some t in trait_values(node)
	trim_space(t[field]) != ""
}

# json_schema_format holds for the schema formats that are JSON Schema:
# AsyncAPI's own and JSON Schema's (absent means AsyncAPI's). OpenAPI,
# Avro, RAML and Protobuf schemas are not.
json_schema_format(f) if f == ""

json_schema_format(f) if startswith(f, "application/vnd.aai.asyncapi")

json_schema_format(f) if startswith(f, "application/schema+json")

json_schema_format(f) if startswith(f, "application/schema+yaml")

# schema_format is the format of a message's payload: the message's
# schemaFormat in 2.x, the multi-format schema's in 3.x, "" when unset.
schema_format(m) := object.get(m.node, "schemaFormat", "") if v2

schema_format(m) := object.get(w, "schemaFormat", "") if {
	v3
	w := deref(object.get(m.node, "payload", {}))
}

# validate checks value against a JSON Schema written in the document:
# the schema's own $refs into components resolve because the document's
# components are offered alongside it. It returns the first error ("lumens:
# Must be greater than or equal to 0"), and is undefined when the value
# matches or the schema cannot be compiled.
validate(value, schema) := replace(trim_prefix(errors[0].error, "(Root): "), "(Root)", "the value") if {
	bundle := object.union({"components": object.get(input.document, "components", {})}, schema)
	[ok, errors] := specgate.match_schema(value, bundle)
	not ok
}

# Names for messages.
channel(ch) := sprintf("channel %q", [ch.id])

# address_label names a channel by its address: in 2.x the key is the
# address, in 3.x the channel is named too.
address_label(ch) := sprintf("channel %q", [ch.id]) if v2

address_label(ch) := sprintf("the address %q of channel %q", [address(ch), ch.id]) if v3

server(s) := sprintf("server %q", [s.source[1]])

operation(op) := sprintf("operation %q", [op.id]) if op.id != ""

operation(op) := sprintf("the %s operation of channel %q", [op.action, op.channel]) if op.id == ""

message(m) := sprintf("message %q", [m.name]) if m.name != ""

message(m) := sprintf("the message at %s", [pointer(m.source)]) if m.name == ""

# components are the entries of one section of components, by name.
components(kind) := object.get(input.document, ["components", kind], {})

# component_traits are the reusable operation or message traits:
# {"kind", "value", "source", "owner"}.
component_traits(kind) := {{"kind": kind, "value": t, "source": ["components", kind, name], "owner": sprintf("%s %q", [_trait_kind[kind], name])} |
	some name, raw in components(kind)
	t := deref(raw)
}

_trait_kind := {"operationTraits": "operation trait", "messageTraits": "message trait"}

# inline_traits are the traits written inside an operation or a message
# (not $refs: those are listed with the components they point to).
inline_traits(x) := {{"kind": kind, "value": t, "source": array.concat(x.source, ["traits", i]), "owner": sprintf("trait %d of %s", [i, owner])} |
	some i, t in object.get(x.node, "traits", [])
	not is_ref(t)
	[kind, owner] := _owner(x)
}

_owner(x) := ["operationTraits", operation(x)] if x.action

_owner(x) := ["messageTraits", message(x)] if not x.action

# tag_lists are the tag lists of the document: {"tags", "source", "owner"}.
tag_lists contains {"tags": input.document.tags, "source": ["tags"], "owner": "the document"} if {
	v2
	is_array(input.document.tags)
}

tag_lists contains {"tags": input.document.info.tags, "source": ["info", "tags"], "owner": "the document"} if {
	v3
	is_array(input.document.info.tags)
}

tag_lists contains _tag_list(s.node, s.source, server(s)) if some s in input.servers

tag_lists contains _tag_list(ch.node, ch.source, channel(ch)) if {
	v3
	some ch in input.channels
}

tag_lists contains _tag_list(op.node, op.source, operation(op)) if some op in input.asyncOperations

tag_lists contains _tag_list(m.node, m.source, message(m)) if some m in input.messages

tag_lists contains _tag_list(t.value, t.source, t.owner) if some t in traits

_tag_list(node, source, owner) := {"tags": node.tags, "source": array.concat(source, ["tags"]), "owner": owner} if is_array(node.tags)

# traits are every operation and message trait: reusable and inline.
traits contains t if some t in component_traits("operationTraits")

traits contains t if some t in component_traits("messageTraits")

traits contains t if {
	some op in input.asyncOperations
	some t in inline_traits(op)
}

traits contains t if {
	some m in input.messages
	some t in inline_traits(m)
}

# security_lists are the security lists of servers, operations and
# operation traits: {"list", "source", "owner"}. In 2.x each item is a
# Security Requirement (scheme name to scopes); in 3.x each item is a
# Security Scheme or a $ref to one.
security_lists contains _security_list(s.node, s.source, server(s)) if some s in input.servers

security_lists contains _security_list(op.node, op.source, operation(op)) if some op in input.asyncOperations

security_lists contains _security_list(t.value, t.source, t.owner) if {
	some t in traits
	t.kind == "operationTraits"
}

_security_list(node, source, owner) := {"list": node.security, "source": array.concat(source, ["security"]), "owner": owner} if is_array(node.security)

# security_schemes are the reusable security schemes, by name.
security_schemes := components("securitySchemes")
