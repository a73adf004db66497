# METADATA
# title: Array parameters say how they are serialized
# description: |
#   A query or cookie parameter whose schema is an array sets both `style`
#   and `explode`. OpenAPI lets an array travel as `ids=1&ids=2` (the
#   default, `form` with `explode: true`), as `ids=1,2` (`explode:
#   false`), or space- or pipe-delimited, and servers differ in what they
#   parse. Left to the default, the description says `ids=1&ids=2` while
#   many readers and frameworks assume `ids=1,2`; written out, client
#   generators, mock servers and people send what the server reads.
#
#   Parameters defined with `content` instead of `schema`, and path and
#   header parameters (whose one common serialization is `simple`), are
#   not checked. A schema is an array when its `type` is or lists `array`,
#   or it has `items` or `prefixItems`, following one local `$ref`. Each
#   parameter is checked once, where it is written. The rule reports on the
#   parameter.
#
#   ```yaml
#   - name: ids
#     in: query
#     schema: {type: array, items: {type: integer}}   # bad: ids=1&ids=2 or ids=1,2?
#     style: form                                      # good
#     explode: false
#   ```
# custom:
#   category: Parameters
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [oas3]
#   peers: ["redocly:array-parameter-serialization"]
#   howToFix: |
#     Add `style` and `explode` to the parameter: `style: form` with
#     `explode: true` for `ids=1&ids=2`, with `explode: false` for
#     `ids=1,2`; `spaceDelimited` or `pipeDelimited` for `ids=1%201` and
#     `ids=1|2`.
package specgate.rules["array-parameter-serialization"]

import data.specgate.lib.health
import data.specgate.lib.util

# The query and cookie parameters are split from the others in one call
# (specgate.partition_at): a large API's parameters are mostly in the path
# or the headers, each an iteration of Rego for no finding otherwise.
violations contains util.violation(p.source, msg) if {
	some p in specgate.lacking(specgate.partition_at(input.parameters, ["in"], "", {"query", "cookie"})[0], ["content"])
	# Settled before the schema is followed: a large API's inline query
	# parameters often set both.
	not _both_set(p.node)
	_array(health.deref(p.schema))
	msg := sprintf("%s parameter %q is an array but %s", [p["in"], p.name, _default(p.node, p.name)])
}

# Presence tests read the key: object.keys would build a set of every
# key of every parameter.
_both_set(node) if {
	_ := node.style
	_ := node.explode
}

_default(node, name) := sprintf("sets neither style nor explode, so it is sent as %s=1&%s=2 by default", [name, name]) if {
	not "style" in object.keys(node)
	not "explode" in object.keys(node)
} else := sprintf("sets style %s without explode, which then defaults to %v", [node.style, node.style == "form"]) if {
	"style" in object.keys(node)
} else := "sets explode without style, which then defaults to form"

_array(schema) if schema.type == "array"

_array(schema) if {
	is_array(schema.type)
	"array" in schema.type
}

_array(schema) if _ := schema.items

_array(schema) if _ := schema.prefixItems
