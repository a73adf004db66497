# METADATA
# title: No nullable in OpenAPI 3.1 and later
# description: |
#   OpenAPI 3.1 and later do not use `nullable`: their schemas are JSON
#   Schema 2020-12, where null is allowed by listing `"null"` among the
#   types (`type: [string, "null"]`). There, `nullable: true` is an
#   unknown keyword that validators and code generators ignore, so null
#   values stay rejected where the author meant to allow them; it is
#   usually left over from converting an OpenAPI 3.0 document.
#
#   Only `nullable: true` is reported (`nullable: false` asks for nothing
#   and changes nothing). Every schema is checked once, named or inline.
#   The rule reports on `nullable`, and suggests the type list to write
#   when the schema has a type.
#
#   ```yaml
#   openapi: 3.1.0
#   ...
#   nickname:
#     type: string
#     nullable: true        # bad: ignored in 3.1
#   nickname:
#     type: [string, "null"]
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3.1, oas3.2]
#   howToFix: |
#     Remove `nullable` and add `"null"` to the types: `type: [string,
#     "null"]`. For a composed schema (`oneOf`, `allOf`), add a
#     `{type: "null"}` alternative to a `oneOf` or `anyOf` instead.
package specgate.rules["nullable-oas31"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["nullable"]), msg) if {
	some s in correctness.having("nullable")
	s.node.nullable == true
	msg := sprintf("%s says nullable: true, which OpenAPI %s ignores; %s", [correctness.describe(s), input.version, _fix(s.node)])
}

_fix(node) := sprintf("write type: [%s] instead", [concat(", ", [json.marshal(t) | some t in _with_null(node)])]) if {
	count(correctness.declared_types(node)) > 0
} else := `allow null with "null" in type, or a {type: "null"} alternative in oneOf or anyOf`

_with_null(node) := array.concat([t | some t in _types(node); t != "null"], ["null"])

_types(node) := [node.type] if is_string(node.type)

else := node.type
