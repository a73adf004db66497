# METADATA
# title: Components are used
# description: |
#   Every reusable object the document defines is referenced somewhere:
#   the schemas, responses, parameters, examples, request bodies, headers,
#   links, callbacks, path items and media types under `components`
#   (Swagger 2.0: `definitions`, `parameters` and `responses`). An unused
#   component is dead weight at best; often it is the one that was meant
#   to be used, while an inline copy or a misspelled reference is used
#   instead, and the two drift apart.
#
#   A component counts as used when a `$ref` of any file of the document
#   points at it or into it, other than from inside the component itself
#   (a recursive schema used nowhere else is unused), when a `$ref` inside
#   an extension of the entry file does (tools follow GitHub's
#   `x-webhooks`, for instance), when a `discriminator` mapping names
#   it, or when it is a subtype of a schema with a `discriminator` (its
#   `allOf` references that schema: clients reach it through the
#   discriminator's value). Security schemes are used by name, not
#   by `$ref`, and are not checked here. Documents without paths and
#   webhooks are libraries of components for other documents and are not
#   checked, nor documents with an unresolved `$ref` (it may have been
#   meant for one of the components; `no-unresolved-ref` reports it). The
#   rule reports on the component's name.
#
#   ```yaml
#   components:
#     schemas:
#       Pet: {type: object}         # used by a $ref
#       LegacyPet: {type: object}   # bad: nothing refers to it
#   ```
# custom:
#   category: References
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas3-unused-component", "spectral:oas2-unused-definition", "vacuum:oas3-unused-component", "vacuum:oas2-unused-definition", "redocly:no-unused-components"]
#   howToFix: |
#     Reference the component where it was meant to be used, or delete it.
#     If it is published for other documents to reference, move it to a
#     shared file that has no paths.
package specgate.rules["unused-components"]

import data.specgate.lib.correctness
import data.specgate.lib.util

_kinds := {"definitions": "schema", "parameters": "parameter", "responses": "response"} if util.is_oas2

else := object.remove(correctness.component_kinds, ["securitySchemes"])

# _containers are where each kind of component lives.
_containers := [[["definitions"], "definitions"], [["parameters"], "parameters"], [["responses"], "responses"]] if util.is_oas2

else := [[["components", kind], kind] | some kind, _ in _kinds]

violations contains util.violation(path, msg) if {
	_checked
	some [prefix, kind] in _containers
	referenced := object.get(_referenced, concat("", ["#", correctness.pointer(prefix)]), {})
	some name, _ in object.get(input.document, prefix, {})
	not referenced[name]
	path := array.concat(prefix, [name])
	not path in _used_by_extensions
	not _mapped(kind, name)
	not _subtype(kind, name)
	msg := sprintf("%s %q is defined but never referenced; reference it where it belongs or remove it", [_kinds[kind], name])
}

# _checked holds for documents that describe an API (paths or webhooks)
# and whose references all resolve.
_checked if {
	count(object.get(input.document, "paths", {})) + count(object.get(input.document, "webhooks", {})) > 0
	# refsTo lists the resolved references only.
	sum([count(refs) | some refs in input.refsTo]) == count(input.refs)
}

# _referenced are the components that a reference from outside them
# points at or into (such as "#/components/schemas/Pet/properties/name"),
# by the pointer of their map and their name: {"#/components/schemas":
# {"Pet": true}}.
_referenced := correctness.referenced_components

# A reference written in an extension counts too: the loader does not
# follow them, but tools do (GitHub's x-webhooks refer to examples and
# schemas that nothing else uses). These are the paths of the components
# they point at or into.
_used_by_extensions contains array.slice(path, 0, _depth) if {
	some r in correctness.extension_refs
	path := util.ref_path(r.ref)
	count(path) >= _depth
}

# _depth is the number of segments of a component's path.
_depth := 2 if util.is_oas2

else := 3

_outside(r, _) if r.file != ""

_outside(r, path) if array.slice(r.path, 0, count(path)) != path

# _mapped holds for schemas a discriminator mapping names, by name or by
# reference: mapping values are strings, not $refs.
_mapped(kind, name) if {
	kind in {"schemas", "definitions"}
	name in _mapping_names
}

_mapping_names contains name if {
	some s in correctness.having("discriminator")
	is_object(s.node.discriminator)
	some value in array.concat([v | some v in object.get(s.node.discriminator, "mapping", {})], [object.get(s.node.discriminator, "defaultMapping", "")])
	is_string(value)
	name := _mapped_name(value)
}

_mapped_name(value) := util.unescape(regex.replace(value, `^.*/`, "")) if contains(value, "/")

else := value

# A schema whose allOf references a schema with a discriminator is one of
# its subtypes, which clients reach through the discriminator's value
# rather than through a $ref.
_subtype(kind, name) if {
	kind in {"schemas", "definitions"}
	some member in object.get(object.get(input.document, _schema_container, {})[name], "allOf", [])
	ref := object.get(member, "$ref", "")
	is_string(ref)
	_mapped_name(ref) in _discriminated
}

_schema_container := ["definitions"] if util.is_oas2

else := ["components", "schemas"]

_discriminated contains s.name if {
	some s in correctness.having("discriminator")
	s.name != ""
}
