# METADATA
# title: Components from different files have different names
# description: |
#   Two different definitions of the same kind (schema, parameter,
#   response, request body) that a multi-file description references do
#   not share a name. Bundling a description into one file, as
#   documentation portals, SDK generators and gateways do, moves every
#   definition reached through another file under `components` by its name
#   (a file's name without extension, or the last key of its JSON
#   pointer): `Pet.yaml` and `legacy/Pet.yaml`, or `Pet.yaml` and the
#   document's own `components.schemas.Pet`, collide there, and the bundler
#   renames one (`Pet-2`), so generated types and links get names nobody
#   chose.
#
#   The entry file's components and the targets of `$ref`s into other files
#   are compared; the same definition referenced several times counts
#   once. A reference's kind comes from where it is written (under
#   `parameters`, `responses`, `requestBody`, or a schema keyword). The rule
#   reports each clashing definition once: a component of the entry file on
#   its name, a definition of another file on the first reference to it.
#
#   ```yaml
#   components:
#     schemas:
#       Pet: {type: object}
#   paths:
#     /legacy/pets:
#       get:
#         responses:
#           "200":
#             content:
#               application/json:
#                 schema: {$ref: "legacy/Pet.yaml"}   # bad: a second "Pet"
#   ```
# custom:
#   category: Structure
#   maturity: Gold
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["redocly:component-name-unique"]
#   howToFix: |
#     Rename one of the definitions (its file, or its key) so that each name
#     stands for one definition, or reference the same definition from
#     both places if they are meant to be one.
package specgate.rules["component-name-unique"]

import data.specgate.lib.util

# Definitions are the entry file's components and the targets of
# references into other files. A clash needs a definition from another
# file, so the components are only looked at for the names those have: a
# one-file description costs nothing.
_homes := {["definitions"]: "schema", ["parameters"]: "parameter", ["responses"]: "response"} if util.is_oas2

else := {
	["components", "schemas"]: "schema",
	["components", "parameters"]: "parameter",
	["components", "responses"]: "response",
	["components", "requestBodies"]: "request body",
}

# _targets are [kind, name, location, label, reference] of the definitions
# of other files, at the first reference to each (refsTo lists a
# definition's references in document order).
_targets contains [kind, _name(r), location, r.ref, r] if {
	some refs in input.refsTo
	r := refs[0]
	r.targetFile != ""
	kind := _kind(r.path)
	location := concat("#", [r.targetFile, concat("/", [util.escape(seg) | some seg in r.target])])
}

# _labels are the [location, label] of the targets of each [kind, name].
_labels := specgate.group({[[kind, name], [location, label]] | some [kind, name, location, label, _] in _targets})

# A component of the entry file that a definition of another file clashes
# with.
violations contains util.violation(path, msg) if {
	count(_targets) > 0
	some home, kind in _homes
	some name, _ in object.get(input.document, home, {})
	clashes := _labels[[kind, name]]
	path := array.concat(home, [name])
	others := {label | some [_, label] in clashes}
	msg := _message(kind, name, others)
}

# A definition of another file that clashes with a component or with a
# definition of a third file.
violations contains _at(r, msg) if {
	some [kind, name, location, _, r] in _targets
	others := {label | some [loc, label] in _labels[[kind, name]]; loc != location} | _components_named(kind, name)
	count(others) > 0
	msg := _message(kind, name, others)
}

_components_named(kind, name) := {_label(array.concat(home, [name])) |
	some home, k in _homes
	k == kind
	object.get(input.document, array.concat(home, [name]), null) != null
}

_message(kind, name, others) := sprintf("%s name %q is also the name of %s; bundling must rename one of them", [kind, name, concat(", ", sort(others))])

_label(path) := concat("/", array.concat(["#"], [util.escape(seg) | some seg in path]))

_at(r, msg) := util.violation(r.path, msg) if r.file == ""

else := {"path": r.path, "message": msg, "file": r.file}


# _name is the name a bundler gives a definition: the last key of its
# pointer, or the file's name without its extension.
_name(r) := r.target[count(r.target) - 1] if count(r.target) > 0

else := regex.replace(base, `\.(ya?ml|json)$`, "") if {
	parts := split(r.targetFile, "/")
	base := parts[count(parts) - 1]
}

# _kind is what a reference written at path stands for.
_kind(path) := "schema" if {
	path[count(path) - 1] in _schema_keywords
} else := "schema" if {
	path[count(path) - 2] in _schema_maps
} else := "parameter" if {
	path[count(path) - 2] == "parameters"
} else := "response" if {
	path[count(path) - 2] == "responses"
} else := "request body" if {
	path[count(path) - 1] == "requestBody"
} else := "request body" if {
	path[count(path) - 2] == "requestBodies"
}

_schema_keywords := {
	"schema", "items", "additionalProperties", "not", "if", "then", "else", "contains",
	"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "itemSchema", "additionalItems",
}

_schema_maps := {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "allOf", "anyOf", "oneOf", "prefixItems", "schemas"}
