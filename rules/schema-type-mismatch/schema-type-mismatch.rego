# METADATA
# title: Schemas do not mix array and object keywords
# description: |
#   A schema of `type: object` has no `items`, and a schema of `type:
#   array` has no `properties`. Validators ignore keywords that do not apply
#   to the instance's type, so such a keyword constrains nothing: an object
#   schema with `items` usually meant to be an array of those items, and an
#   array schema with `properties` meant to describe its elements under
#   `items`.
#
#   Likewise the bounds of one type do nothing on a schema of another:
#   `minLength`, `maxLength` and `pattern` apply to strings; `minimum`,
#   `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf` to
#   numbers and integers; `minItems` and `maxItems` to arrays;
#   `minProperties` and `maxProperties` to objects. A `minItems` on the
#   string `items` of an array, meant for the array, lets an empty list
#   through. (`uniqueItems` is not reported: a single value is unique
#   anyway, so nothing the author meant is lost, and generators such as
#   Kubernetes' put it on every parameter.)
#
#   A schema whose type list (OpenAPI 3.1) includes both `object` and
#   `array` may use both keywords and is not reported, nor is a keyword
#   whose type is in the list. Schemas without a type are left to
#   `schema-type-declared`. Every schema is
#   checked once, named or inline. The rule reports on the keyword that
#   does not apply.
#
#   ```yaml
#   Pets:
#     type: object
#     items:              # bad: ignored for an object
#       $ref: '#/components/schemas/Pet'
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["redocly:no-schema-type-mismatch", "vacuum:oas-schema-check"]
#   howToFix: |
#     Correct the type (`type: array` for a list of items), or move the
#     keyword where it belongs: the element's `properties` go under `items`.
package specgate.rules["schema-type-mismatch"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["items"]), msg) if {
	some s in correctness.having("items") # present, whatever its value
	s.node.type != "array" # a quick test: nearly all are arrays
	types := correctness.declared_types(s.node)
	"object" in types
	not "array" in types
	msg := sprintf("%s is of type object, so its items are ignored; use type array, or remove items", [correctness.describe(s)])
}

# A keyword of one type on a schema of others: minItems on a string,
# maxLength on an integer. Schemas without a type are left to
# schema-type-declared.
violations contains util.violation(array.concat(s.source, [key]), msg) if {
	some key, wanted in _keyword_types
	allowed := _applies_to[wanted] # read once per keyword, not per schema
	some s in correctness.having(key)
	not s.node.type in allowed # a quick test: most schemas with the keyword have its type
	types := correctness.declared_types(s.node)
	count(types) > 0
	not _applies(wanted, types)
	msg := sprintf("%s is of type %s, so its %s is ignored: it applies to %ss only", [correctness.describe(s), correctness.types_text(types), key, wanted])
}

_keyword_types := {
	"minLength": "string", "maxLength": "string", "pattern": "string",
	"minimum": "number", "maximum": "number", "exclusiveMinimum": "number", "exclusiveMaximum": "number", "multipleOf": "number",
	"minItems": "array", "maxItems": "array",
	"minProperties": "object", "maxProperties": "object",
}

# _applies_to are the types, each written alone, that the keywords of
# each type apply to.
_applies_to := {"string": {"string"}, "number": {"number", "integer"}, "array": {"array"}, "object": {"object"}}

_applies(wanted, types) if wanted in types

_applies("number", types) if "integer" in types

violations contains util.violation(array.concat(s.source, ["properties"]), msg) if {
	some s in correctness.of_type("array")
	_ := s.node.properties
	not "object" in correctness.declared_types(s.node)
	msg := sprintf("%s is of type array, so its properties are ignored; describe the elements under items", [correctness.describe(s)])
}
