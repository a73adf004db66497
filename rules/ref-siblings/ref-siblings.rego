# METADATA
# title: No keys beside $ref where they are ignored
# description: |
#   An object holding `$ref` has no other keys where the specification
#   ignores them. In Swagger 2.0 and OpenAPI 3.0, a Reference Object is
#   replaced by its target: a `description`, `nullable` or `example`
#   written beside `$ref` is dropped by conforming tools, so what the
#   author meant to add (usually a more specific description, or making a
#   shared schema nullable in one place) silently does not happen. OpenAPI
#   3.1 and later let a Reference Object carry `summary` and `description`,
#   which override the target's, and make schemas JSON Schema 2020-12,
#   where `$ref` is an ordinary keyword that combines with its siblings;
#   those are not reported.
#
#   Every `$ref` of every file of the document is checked, except those of
#   Path Items, whose siblings the specification merges with the target,
#   and except `x-` extensions, which the specification leaves to tools.
#   In OpenAPI 3.1 and later, a `$ref` that may be a schema (written in a
#   schema position, in another file, or pointing at a schema) is left
#   alone. The rule reports on each ignored key.
#
#   ```yaml
#   # OpenAPI 3.0
#   owner:
#     $ref: '#/components/schemas/User'
#     description: The owner of the pet    # bad: ignored
#   owner:
#     description: The owner of the pet
#     allOf:
#       - $ref: '#/components/schemas/User'
#   ```
# custom:
#   category: References
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:no-$ref-siblings", "vacuum:no-$ref-siblings", "vacuum:oas3-no-$ref-siblings", "redocly:spec-ref-siblings"]
#   howToFix: |
#     For a schema, wrap the reference so the keys apply:
#     `{description: ..., allOf: [{$ref: ...}]}` (in OpenAPI 3.0, put
#     `nullable: true` and a `type` beside that `allOf`). For other
#     objects, move the key into the referenced object, or define a
#     separate component. In OpenAPI 3.1, only `summary` and `description`
#     may stand beside `$ref` in a Reference Object.
package specgate.rules["ref-siblings"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains _violation(r, key, msg) if {
	some r in correctness.refs_with_siblings
	not _path_item(r.path)
	not _allowed_everything(r)
	some key in r.siblings
	not startswith(key, "x-")
	not _allowed(key)
	msg := sprintf("%s beside $ref %q is ignored: %s", [key, r.ref, _why])
}

_violation(r, key, msg) := util.violation(array.concat(r.path, [key]), msg) if r.file == ""

else := {"path": array.concat(r.path, [key]), "message": msg, "file": r.file}

_why := "in Swagger 2.0 a reference is replaced by its target" if util.is_oas2

else := "in OpenAPI 3.0 a Reference Object takes no other keys" if correctness.is_version("3.0")

else := sprintf("in OpenAPI %s a Reference Object takes only summary and description", [input.version])

# _allowed are the keys OpenAPI 3.1 and later let a Reference Object
# carry.
_allowed(key) if {
	correctness.oas31_or_later
	key in {"summary", "description"}
}

# _allowed_everything holds for references that may be schemas in OpenAPI
# 3.1 and later, where $ref combines with any other keyword.
_allowed_everything(r) if {
	correctness.oas31_or_later
	_maybe_schema(r)
}

_maybe_schema(r) if r.file != ""

_maybe_schema(r) if {
	some seg in r.path
	seg in _schema_words
}

_maybe_schema(r) if {
	array.slice(r.path, 0, 2) == ["components", "schemas"]
}

_maybe_schema(r) if {
	array.slice(r.target, 0, 2) == ["components", "schemas"]
}

_maybe_schema(r) if r.target == null

_schema_words := {"schema", "itemSchema", "schemas", "properties", "items", "allOf", "anyOf", "oneOf", "not", "additionalProperties", "patternProperties", "$defs", "prefixItems", "contains", "if", "then", "else", "dependentSchemas", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}

# _path_item holds for a $ref standing for a Path Item, whose siblings the
# specification merges with the target.
_path_item(path) if {
	count(path) == 2
	path[0] in {"paths", "webhooks"}
}

_path_item(path) if {
	count(path) == 3
	array.slice(path, 0, 2) == ["components", "pathItems"]
}

_path_item(path) if {
	count(path) > 2
	path[count(path) - 3] == "callbacks"
}
