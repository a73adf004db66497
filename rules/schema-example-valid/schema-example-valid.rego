# METADATA
# title: Schema examples match their schema
# description: |
#   The `example` of a schema (and, in OpenAPI 3.1 and later, each entry
#   of its `examples` list) is a value the schema accepts. Documentation,
#   mock servers and generated tests show or send these values; an example
#   of the wrong type, missing a required property or outside an enum
#   teaches clients a payload the API rejects, and is often the first sign
#   that the schema and the implementation have drifted apart.
#
#   Each example is validated with a JSON Schema validator (drafts 4 to 7)
#   against its schema, the named schemas it references through local
#   `$ref`s included. Where the dialects differ, the rule errs on the side
#   of silence: schemas that reference other files are not checked,
#   `format` is treated as an annotation (as JSON Schema 2020-12 does), a
#   null is not reported as a type error in Swagger 2.0 and OpenAPI 3.0
#   (where `nullable` decides), a `oneOf` matched by several alternatives
#   is not reported (a discriminator may settle it), and JSON Schema
#   2020-12 keywords that draft 7 lacks (`prefixItems`,
#   `unevaluatedProperties`, `dependentRequired`, ...) are not enforced.
#   Every schema is checked once. The rule reports on the example with the
#   first reasons it is rejected.
#
#   ```yaml
#   Pet:
#     type: object
#     required: [name]
#     properties:
#       name: {type: string}
#       age: {type: integer}
#     example: {age: two}   # bad: name is missing, age is not an integer
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas3-valid-schema-example", "spectral:oas2-valid-schema-example", "vacuum:oas3-valid-schema-example", "redocly:no-invalid-schema-examples"]
#   howToFix: |
#     Correct the example to a value the schema accepts, or, if the example
#     shows what the API really sends, correct the schema.
package specgate.rules["schema-example-valid"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["example"]), msg) if {
	some s in _judged
	errors := correctness.example_errors(s.node.example, correctness.schema_part(s.node))
	count(errors) > 0
	msg := sprintf("the example of %s does not match its schema: %s", [correctness.describe(s), correctness.errors_text(errors)])
}

violations contains util.violation(array.concat(s.source, ["examples", i]), msg) if {
	correctness.oas31_or_later
	some s in correctness.having("examples")
	is_array(s.node.examples)
	some i, value in s.node.examples
	errors := correctness.example_errors(value, correctness.schema_part(s.node))
	count(errors) > 0
	msg := sprintf("example %d of %s does not match its schema: %s", [i, correctness.describe(s), correctness.errors_text(errors)])
}

# _judged are the schemas whose example the validator judges: all but
# those with a type and annotations alone whose example has that type
# (most of a large API's examples), which are found in one Go pass and
# settled here without correctness.example_errors' key count (a set of
# keys, a difference and a count per example). A schema judged takes
# example_errors' whole way, its own shortcut included.
_judged := array.concat(
	[s | some s in _plain[0]; not _fits(s.node.example, s.node.type)],
	_plain[1],
)

_plain := specgate.within_keys(correctness.having("example"), _plain_keys)

# _plain_keys are the type and the keys correctness.example_errors takes
# for annotations.
_plain_keys := ["type", "description", "title", "example", "examples", "default", "format", "readOnly", "writeOnly", "nullable", "deprecated", "externalDocs", "xml"]

# _fits(value, type) holds when a scalar type's value has it, as the
# validator would judge it.
_fits(value, "string") if is_string(value)

_fits(value, "number") if is_number(value)

_fits(value, "integer") if {
	is_number(value)
	value == round(value)
}

_fits(value, "boolean") if is_boolean(value)
