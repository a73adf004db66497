# METADATA
# title: Enum and const values match the schema's type
# description: |
#   Every value listed in a schema's `enum`, and its `const`, is of a type
#   the schema allows. A value of another type can never be valid: a client
#   that picks it from the list is rejected, and code generators either
#   fail or drop it.
#
#   The allowed types are those of `type` (a string, or a list in OpenAPI
#   3.1), with `null` added by `nullable: true` in OpenAPI 3.0 and by the
#   common `x-nullable: true` extension in Swagger 2.0. An integer is any
#   number without a fractional part (`1.0` is an integer, as in JSON
#   Schema), and every integer is a number. Schemas without `type` are not
#   checked, nor schemas whose type is not a JSON type (Swagger's `file`).
#   Every schema is checked once, named or inline, and in Swagger 2.0 also
#   the parameters and headers that carry `type` and `enum` themselves. The
#   rule reports on each offending value.
#
#   ```yaml
#   status:
#     type: integer
#     enum: [1, 2, "3"]   # bad: "3" is a string
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:typed-enum", "vacuum:typed-enum", "redocly:no-enum-type-mismatch"]
#   howToFix: |
#     Write each value as the type requires (`3`, not `"3"`), change `type`
#     to the type the values really have, or, for `null`, make the schema
#     nullable (`nullable: true` in OpenAPI 3.0, `type: [string, "null"]`
#     in OpenAPI 3.1).
package specgate.rules["typed-enum"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["enum", i]), msg) if {
	some s in _unsettled
	enum := s.node.enum
	is_array(enum)
	not _string_enum(s.node, enum)
	types := _types(s.node)
	not _all_strings(types, enum)
	some i, v in enum
	not correctness.fits_types(v, types)
	msg := sprintf("enum value %s of %s is %s, but its type is %s", [json.marshal(v), correctness.describe(s), correctness.type_of(v), correctness.types_text(types)])
}

violations contains util.violation(array.concat(s.source, ["const"]), msg) if {
	some s in correctness.having("const")
	v := s.node["const"]
	types := _types(s.node)
	not correctness.fits_types(v, types)
	msg := sprintf("const value %s of %s is %s, but its type is %s", [json.marshal(v), correctness.describe(s), correctness.type_of(v), correctness.types_text(types)])
}

# _types are the types a schema allows, when they are all JSON types.
# _unsettled are the schemas with an enum that may hold a value of
# another type than theirs: all but those of type "string" whose values
# are all strings (most enums), which are set aside in two calls rather
# than tested one by one.
_unsettled := array.concat([texts[i] | some i in specgate.positions_matching(texts, ["node", "type"], `^string$`)[1]], others) if {
	[texts, others] := specgate.elements_of_type(correctness.having("enum"), "enum", "string")
}

_types(node) := types if {
	types := correctness.declared_types(node)
	count(types - correctness.json_types) == 0
}

# _string_enum is the most common case, a string schema with string
# values, settled before the schema's types are read (with or without
# null among them, strings fit).
_string_enum(node, enum) if {
	node.type == "string"
	every v in enum {
		is_string(v)
	}
}

# _all_strings is the common case, checked without a call per value.
_all_strings(types, enum) if {
	"string" in types
	every v in enum {
		is_string(v)
	}
}
