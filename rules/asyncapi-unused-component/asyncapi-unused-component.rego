# METADATA
# title: Reusable components are used
# description: |
#   Every entry under `components` is used: referenced by a `$ref` from
#   outside itself, or, for an AsyncAPI 2 security scheme, named in a
#   security requirement. An unused component is dead weight that readers
#   still have to read, and often the leftover of a rename, where the
#   document meant to use it and uses a stale copy instead.
#
#   A document with no channels and no operations is taken to be a library
#   of components for other documents, and is not checked. A `$ref` from
#   any file of the document counts, and so does a `$ref` to a part of the
#   component (`#/components/schemas/user/properties/id`); a `$ref` from
#   inside the component to itself does not. The rule reports on the
#   component.
#
#   ```yaml
#   components:
#     schemas:
#       user: {type: object}         # good: used by a message payload
#       userV1: {type: object}       # bad: nothing refers to it
#   ```
# custom:
#   category: References
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-unused-components-schema", "spectral:asyncapi-unused-components-server", "vacuum:asyncapi-unused-components"]
#   howToFix: |
#     Remove the component, or refer to it where the document meant to use
#     it.
package specgate.rules["asyncapi-unused-component"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(["components", kind, name], msg) if {
	_has_api
	some kind, entries in object.get(input.document, "components", {})
	is_object(entries)
	some name, _ in entries
	not [kind, name] in _used
	msg := sprintf("%s %q is not used: nothing refers to components.%s.%s", [_kinds[kind], name, kind, name])
}

_has_api if count(object.get(input.document, "channels", {})) > 0

_has_api if count(object.get(input.document, "operations", {})) > 0

# _used are the [kind, name] pairs some $ref points into, from outside the
# component itself.
_used contains [p[1], p[2]] if {
	some r in input.refs
	i := indexof(r.ref, "#")
	i >= 0
	p := asyncapi.pointer_path(substring(r.ref, i, -1))
	count(p) >= 3
	p[0] == "components"
	not _inside(r, p)
}

_used contains ["securitySchemes", name] if {
	asyncapi.v2
	some l in asyncapi.security_lists
	some requirement in l.list
	some name, _ in requirement
}

_inside(r, p) if {
	r.file == ""
	count(r.path) >= 3
	array.slice(r.path, 0, 3) == array.slice(p, 0, 3)
}

_kinds := {
	"schemas": "schema",
	"servers": "server",
	"channels": "channel",
	"operations": "operation",
	"messages": "message",
	"securitySchemes": "security scheme",
	"serverVariables": "server variable",
	"parameters": "parameter",
	"correlationIds": "correlation id",
	"replies": "reply",
	"replyAddresses": "reply address",
	"externalDocs": "external documentation",
	"tags": "tag",
	"operationTraits": "operation trait",
	"messageTraits": "message trait",
	"serverBindings": "server bindings",
	"channelBindings": "channel bindings",
	"operationBindings": "operation bindings",
	"messageBindings": "message bindings",
}
