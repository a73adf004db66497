# METADATA
# title: Nullable enums list null
# description: |
#   A schema that allows null and restricts its values with `enum` lists
#   `null` among them. `enum` is checked on its own: a value must be one of
#   those listed, whatever the type says, so a nullable schema whose enum
#   lacks `null` still rejects null. This holds for `type: [string,
#   "null"]` in OpenAPI 3.1 and, as OpenAPI 3.0.3 clarified, for
#   `nullable: true` in OpenAPI 3.0.
#
#   Every schema with an `enum` is checked once, named or inline. The rule
#   reports on `enum`.
#
#   ```yaml
#   status:
#     type: [string, "null"]
#     enum: [active, archived]         # bad: null is rejected
#   status:
#     type: [string, "null"]
#     enum: [active, archived, null]
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas3]
#   peers: ["vacuum:nullable-enum-contains-null"]
#   howToFix: |
#     Add `null` to the enum, or, if null is not a valid value after all,
#     remove `"null"` from the type (`nullable: true` in OpenAPI 3.0).
package specgate.rules["nullable-enum"]

import data.specgate.lib.correctness
import data.specgate.lib.util

# A schema whose type is or lists "null".
violations contains util.violation(array.concat(s.source, ["enum"]), msg) if {
	some s in correctness.of_type("null")
	is_array(s.node.enum)
	not null in s.node.enum
	msg := sprintf("%s allows null by its type, but its enum does not list null, so null is rejected", [correctness.describe(s)])
}

# A schema that its version's keyword makes nullable (`nullable: true` in
# OpenAPI 3.0) and that has a type, as correctness.declared_types needs.
# The schemas with the keyword are fewer than those with an enum.
violations contains util.violation(array.concat(s.source, ["enum"]), msg) if {
	keyword := correctness.nullable_keyword
	some s in correctness.having(keyword)
	s.node[keyword] == true
	is_array(s.node.enum)
	type_name(s.node.type) in {"string", "array"}
	not null in s.node.enum
	msg := sprintf("%s allows null by its type, but its enum does not list null, so null is rejected", [correctness.describe(s)])
}
