# METADATA
# title: References appear only where the specification allows them
# description: |
#   A `$ref` stands only where the specification allows a Reference
#   Object: for a path item, a parameter, a request body, a response, a
#   header, an example, a link, a callback, a security scheme and a schema
#   (and, since OpenAPI 3.2, a media type). Elsewhere the specification
#   gives `$ref` no meaning: an operation written as `get: {$ref: …}`, or
#   `responses: {$ref: …}`, is an operation (or a responses map) with an
#   unknown `$ref` key, which some tools resolve, some ignore and
#   validators reject. Share such parts by referencing the path item, or
#   each response, instead.
#
#   Checked are the places that never take a reference: the top-level
#   objects (`info`, `paths`, `components`, `servers`, …) and their members
#   such as `info.contact`, a components map, a server or a tag; an
#   operation under `paths`, `webhooks`, a callback or
#   `components.pathItems`; the `responses` and `parameters` of operations
#   and the `parameters` and `servers` of path items; and, in OpenAPI 3.0 and
#   3.1, the `content` of request bodies and responses and its media types.
#   Places inside schemas, examples and extensions are not judged. The
#   rule reports on the `$ref`.
#
#   ```yaml
#   paths:
#     /pets:
#       get:
#         $ref: "./operations/list-pets.yaml"   # bad: an operation is no reference
#     /pets/{petId}:
#       $ref: "./paths/pet.yaml"                 # good: the whole path item
#   ```
# custom:
#   category: References
#   maturity: Bronze
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:path-item-refs", "redocly:spec-strict-refs"]
#   howToFix: |
#     Write the object in place, or move the reference one level up to a
#     place that takes one: reference the whole path item instead of its
#     operation, and each response instead of the `responses` map.
package specgate.rules["ref-location-allowed"]

import data.specgate.lib.correctness
import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

# The rule looks up the places it judges in the document rather than
# going through input.refs: a large API has tens of thousands of references,
# nearly all of schemas, and a test on each costs more than these lookups.
# Where the places are many (every method of every path item, the
# responses and parameters of every operation, every media type),
# specgate.reaching first keeps, in one call, the few items that hold a
# $ref at one of them; the clauses then read those as they read any.

violations contains _finding(path, ref, what) if {
	some key in _top_level
	ref := input.document[key]["$ref"]
	path := [key]
	what := sprintf("the top-level %s", [key])
}

violations contains _finding(path, ref, what) if {
	some key in ["contact", "license"]
	ref := input.document.info[key]["$ref"]
	path := ["info", key]
	what := sprintf("info.%s", [key])
}

violations contains _finding(path, ref, what) if {
	not util.is_oas2
	some key, value in input.document.components
	ref := value["$ref"]
	path := ["components", key]
	what := sprintf("the map components.%s", [key])
}

violations contains _finding(path, ref, what) if {
	some key, noun in {"servers": "server", "tags": "tag", "security": "security requirement"}
	some i, item in input.document[key]
	ref := item["$ref"]
	path := [key, i]
	what := sprintf("%s %d", [noun, i])
}

# Operations: those of paths, seen through each path item (a path item
# may itself be a reference), those of components.pathItems, and those of
# webhooks and callbacks written in place.
violations contains _finding(path, ref, what) if {
	some item in _path_items
	some method in _methods
	ref := item.node[method]["$ref"]
	path := array.concat(item.source, [method])
	what := sprintf("the operation %s %s", [upper(method), item.path])
}

violations contains _finding(path, ref, what) if {
	some name, item in input.document.components.pathItems
	some method in _methods
	ref := item[method]["$ref"]
	path := ["components", "pathItems", name, method]
	what := sprintf("the operation %s of path item %s", [upper(method), name])
}

violations contains _finding(op.source, ref, what) if {
	some op in array.concat(object.get(input, "webhooks", []), object.get(input, "callbacks", []))
	ref := object.get(input.document, op.source, {})["$ref"]
	what := sprintf("the operation %s", [naming.operation(op)])
}

violations contains _finding(path, ref, what) if {
	some op in _operations
	ref := op.node.responses["$ref"]
	path := array.concat(op.source, ["responses"])
	what := sprintf("field responses of %s", [naming.operation(op)])
}

violations contains _finding(path, ref, what) if {
	some op in _operations
	ref := op.node.parameters["$ref"]
	path := array.concat(op.source, ["parameters"])
	what := sprintf("field parameters of %s", [naming.operation(op)])
}

violations contains _finding(path, ref, what) if {
	some item in _path_items
	some field in ["parameters", "servers"]
	ref := item.node[field]["$ref"]
	path := array.concat(item.source, [field])
	what := sprintf("field %s of path item %s", [field, item.path])
}

# Content of request bodies and responses, where they are written.
violations contains _finding(array.concat(b.path, ["content"]), ref, what) if {
	some b in _bodies_with_refs
	ref := b.node.content["$ref"]
	what := sprintf("field content of %s", [_owner(b.path)])
}

violations contains _finding(array.concat(b.path, ["content", media]), ref, what) if {
	some b in _bodies_with_refs
	some media, value in b.node.content
	ref := value["$ref"]
	what := sprintf("media type %s of %s", [media, _owner(b.path)])
}

# _path_items are the path items with a $ref in an operation's place or
# in their parameters or servers; _operations the operations under paths
# with one as their responses or parameters.
_path_items := specgate.reaching(input.pathItems, array.concat(
	[[method, "$ref"] | some method in _methods],
	[["parameters", "$ref"], ["servers", "$ref"]],
))

_operations := specgate.reaching(style.operations, [["responses", "$ref"], ["parameters", "$ref"]])

# _bodies_with_refs are the request bodies and responses written in place
# in operations and under components ({path, node}, as the library lists
# them) with a $ref as their content or as one of its media types, when
# media types cannot be references (before OpenAPI 3.2). The library
# builds items only for the operations whose own bodies reach one (with
# every body and response an item, a large API paid for finding none).
_bodies_with_refs := array.concat(
	correctness.bodies_reaching(_content_refs),
	correctness.responses_reaching(_content_refs),
) if _media_types_inline

else := []

_content_refs := [["content", "$ref"], ["content", null, "$ref"]]

# _owner names a body for messages, from its path.
_owner(["components", "requestBodies", name]) := sprintf("request body %s", [name])

_owner(["components", "responses", name]) := sprintf("response %s", [name])

_owner(at) := sprintf("the request body of %s", [naming.operation(op)]) if {
	at[count(at) - 1] == "requestBody"
	some op in style.operations
	op.source == array.slice(at, 0, count(at) - 1)
}

_owner(at) := sprintf("response %s of %s", [at[count(at) - 1], naming.operation(op)]) if {
	at[count(at) - 2] == "responses"
	some op in style.operations
	op.source == array.slice(at, 0, count(at) - 2)
}

# Media types became referenceable in OpenAPI 3.2.
_media_types_inline if {
	input.format == "openapi"
	not startswith(input.version, "3.2")
}

_finding(path, ref, what) := util.violation(array.concat(path, ["$ref"]), msg) if {
	msg := sprintf("%s is written as $ref %q, but the specification does not allow a reference there", [what, ref])
}

_methods := ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

_top_level := ["info", "paths", "components", "servers", "tags", "security", "externalDocs", "webhooks", "definitions", "parameters", "responses", "securityDefinitions"]
