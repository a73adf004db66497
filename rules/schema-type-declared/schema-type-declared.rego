# METADATA
# title: Schemas that constrain values declare a type
# description: |
#   A schema that uses the keywords of a type (`format`, `pattern`,
#   `minLength`, `maximum`, `minItems`, …) also says which type it is.
#   Those keywords apply only to values of their type: `{format:
#   date-time}` or `{maxLength: 10}` without `type: string` accept 42,
#   `{}` and `[]` unchecked, and generated code maps the schema to an
#   untyped value. The author meant a type and left it out.
#
#   Not reported, because their shape is given otherwise: schemas with
#   `allOf`, `anyOf`, `oneOf`, `not`, `enum`, `const` or `$ref`; schemas
#   with `properties`, `patternProperties`, `additionalProperties`, `items`
#   or `prefixItems`; and the inline members of a composition and the
#   schemas under `not`, `if`, `then`, `else`, `contains` and
#   `propertyNames`, which refine a schema that has a type. A schema with
#   no keyword of a type (`{}`, or only a `description`) is left alone: it
#   accepts any value on purpose. Every schema is checked once, where it is
#   written. The rule reports on the schema.
#
#   ```yaml
#   createdAt:
#     format: date-time        # bad: 42 and {} are valid too
#   createdAt:
#     type: string             # good
#     format: date-time
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas-missing-type"]
#   howToFix: |
#     Add the `type` the values have (`string`, `integer`, `number`,
#     `boolean`, `array`, `object`; since OpenAPI 3.1 a list, with "null"
#     for nullable values) to the schema.
package specgate.rules["schema-type-declared"]

import data.specgate.lib.correctness
import data.specgate.lib.util

# Only schemas with a keyword of some type are looked at, through the
# index of schemas by keyword: a large API has tens of thousands of
# schemas, and scanning each costs more than the rest of the rule.
violations contains util.violation(s.source, msg) if {
	some key in _type_keywords
	some s in object.get(input.schemasWith, key, [])
	not s.node.type
	not _shaped(s.node)
	not _refinement(s.source)
	used := [k | some k in _type_keywords; k in object.keys(s.node)]
	msg := sprintf("%s sets %s but declares no type, so values of any other type pass unchecked", [correctness.describe(s), concat(", ", used)])
}

# _type_keywords apply to values of one type only.
_type_keywords := [
	"format", "pattern", "minLength", "maxLength",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
]

_shaped(node) if {
	some key in _shaping_keywords
	key in object.keys(node)
}

_shaping_keywords := [
	"allOf", "anyOf", "oneOf", "not", "enum", "const", "$ref",
	"properties", "patternProperties", "additionalProperties", "items", "prefixItems",
]

# _refinement holds for a schema written inside a composition or under a
# keyword that applies it to a value another schema already types.
_refinement(source) if source[count(source) - 2] in {"allOf", "anyOf", "oneOf"}

_refinement(source) if source[count(source) - 1] in {"not", "if", "then", "else", "contains", "propertyNames"}
