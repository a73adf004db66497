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
#   The entry file is checked at the places that never take a reference:
#   the top-level objects (`info`, `paths`, `components`, `servers`, …)
#   and their members such as `info.contact`, a components map, a server or
#   a tag; an operation under `paths`, `webhooks`, a callback or
#   `components.pathItems`; and the fixed fields of operations and path
#   items that are lists or maps (`responses`, `parameters`, `callbacks`,
#   `servers`, `security`, `tags`, `externalDocs`), and in OpenAPI 3.0 and
#   3.1 the `content` of a body and its media types. Anything inside a
#   schema, an example or an extension is left alone. The rule reports on
#   the `$ref`.
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
import data.specgate.lib.util

violations contains util.violation(array.concat(r.path, ["$ref"]), msg) if {
	some r in input.refs
	r.file == ""
	not _inside_data_or_schema(r.path)
	what := _not_referenceable(r.path)
	msg := sprintf("%s is written as $ref %q, but the specification does not allow a reference there", [what, r.ref])
}

_methods := {"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}

_top_level := {"info", "paths", "components", "servers", "tags", "security", "externalDocs", "webhooks", "definitions", "parameters", "responses", "securityDefinitions"}

_singular := {"servers": "server", "tags": "tag", "security": "security requirement"}

_operation_fields := {"responses", "parameters", "callbacks", "servers", "security", "tags", "externalDocs"}

# _not_referenceable(path) names the object written at path when that
# object cannot be a reference. One chain, so that a path gets one name.
_not_referenceable(path) := sprintf("the top-level %s", [path[0]]) if {
	count(path) == 1
	path[0] in _top_level
} else := sprintf("info.%s", [path[1]]) if {
	count(path) == 2
	path[0] == "info"
	path[1] in {"contact", "license"}
} else := sprintf("the map components.%s", [path[1]]) if {
	count(path) == 2
	path[0] == "components"
	not util.is_oas2
} else := sprintf("%s %d", [_singular[path[0]], path[1]]) if {
	count(path) == 2
	is_number(path[1])
} else := sprintf("the operation %s", [_operation(path)]) if {
	_operation(path)
} else := sprintf("field %s of %s", [field, _operation(prefix)]) if {
	count(path) > 3
	field := path[count(path) - 1]
	field in _operation_fields
	prefix := array.slice(path, 0, count(path) - 1)
	_operation(prefix)
} else := sprintf("field %s of path item %s", [path[2], path[1]]) if {
	count(path) == 3
	path[0] in {"paths", "webhooks"}
	path[2] in {"parameters", "servers"}
} else := sprintf("field content of %s", [_owner(owner)]) if {
	_bodies_are_inline
	path[count(path) - 1] == "content"
	owner := array.slice(path, 0, count(path) - 1)
	_has_content(owner)
} else := sprintf("media type %s of %s", [path[count(path) - 1], _owner(owner)]) if {
	_bodies_are_inline
	count(path) > 2
	path[count(path) - 2] == "content"
	owner := array.slice(path, 0, count(path) - 2)
	_has_content(owner)
}

# _owner names, for messages, an object that carries content.
_owner(path) := sprintf("the request body of %s", [_operation(array.slice(path, 0, count(path) - 1))]) if {
	path[count(path) - 1] == "requestBody"
} else := sprintf("response %s of %s", [path[count(path) - 1], _operation(array.slice(path, 0, count(path) - 2))]) if {
	path[count(path) - 2] == "responses"
} else := sprintf("%s %s", [_component_kind[path[1]], path[2]]) if {
	count(path) == 3
	path[0] == "components"
} else := concat("", ["#", correctness.pointer(path)])

_component_kind := {"requestBodies": "request body", "responses": "response", "parameters": "parameter", "headers": "header"}

# Media types became referenceable in OpenAPI 3.2.
_bodies_are_inline if {
	not util.is_oas2
	not correctness.is_version("3.2")
}

# _has_content holds for the objects that carry `content`: a request body,
# a response, a parameter, a header.
_has_content(path) if path[count(path) - 1] == "requestBody"

_has_content(path) if {
	count(path) > 1
	path[count(path) - 2] in {"responses", "parameters", "headers", "requestBodies"}
}

# _operation(path) names the operation a path leads to, if it is one.
_operation(["paths", item, method]) := sprintf("%s %s", [upper(method), item]) if method in _methods

_operation(["webhooks", item, method]) := sprintf("%s webhook %s", [upper(method), item]) if method in _methods

_operation(["components", "pathItems", item, method]) := sprintf("%s %s", [upper(method), item]) if method in _methods

_operation(path) := sprintf("%s %s (callback %s)", [upper(method), expr, name]) if {
	n := count(path)
	n > 4
	path[n - 4] == "callbacks"
	method := path[n - 1]
	method in _methods
	name := path[n - 3]
	expr := path[n - 2]
}

# Inside a schema, an example value or an extension, `$ref` may be a
# schema keyword or plain data: not judged here.
_inside_data_or_schema(path) if {
	some i, seg in path
	i > 1
	seg in _data_or_schema
}

_inside_data_or_schema(path) if {
	some seg in path
	is_string(seg)
	startswith(seg, "x-")
}

_data_or_schema := {
	"schema", "schemas", "properties", "items", "allOf", "anyOf", "oneOf", "not", "additionalProperties",
	"patternProperties", "$defs", "definitions", "prefixItems", "contains", "if", "then", "else",
	"dependentSchemas", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "itemSchema",
	"example", "examples", "default", "enum", "const", "value",
}
