# METADATA
# title: Read-only properties are not required (Swagger 2.0)
# description: |
#   In Swagger 2.0, a property marked `readOnly: true` is not listed in the
#   `required` of its schema. Swagger 2.0 has one schema for requests and
#   responses alike and says read-only properties SHOULD NOT be required:
#   a client creating the object cannot send a value the server assigns,
#   so a request validated against the schema fails. (OpenAPI 3.0 and
#   later apply `required` to a read-only property in responses only, so
#   the rule does not apply there.)
#
#   Every schema is checked once, named or inline; a property that is a
#   local `$ref` to a read-only schema counts as read-only. The rule reports
#   on the property's entry in `required`.
#
#   ```yaml
#   Pet:
#     type: object
#     required: [id, name]    # bad: id is read-only
#     properties:
#       id: {type: integer, readOnly: true}
#       name: {type: string}
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2]
#   howToFix: |
#     Remove the read-only property from `required`. To document that
#     responses always carry it, use a separate response schema that
#     requires it (`allOf` the shared schema plus `required: [id]`).
package specgate.rules["oas2-readonly-not-required"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["required", i]), msg) if {
	some s in correctness.having("required")
	is_array(s.node.required)
	props := object.get(s.node, "properties", {})
	some i, name in s.node.required
	health.deref(props[name]).readOnly == true
	msg := sprintf("%s requires property %q, which is readOnly; Swagger 2.0 read-only properties should not be required, or requests that omit them fail validation", [correctness.describe(s), name])
}
