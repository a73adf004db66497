# METADATA
# title: Swagger 2.0 schemas use Swagger 2.0 keywords
# description: |
#   Schemas of a Swagger 2.0 document do not use the keywords that only
#   OpenAPI 3 (or later JSON Schema drafts) have: `anyOf`, `oneOf` and
#   `not` (Swagger 2.0 supports `allOf` only), `nullable`, `writeOnly` and
#   `const`. Swagger 2.0 tools do not know them: validators and code
#   generators ignore them silently, so the schema means something other
#   than what it says (a `oneOf` of two shapes accepts anything; a
#   `nullable` field still rejects null). Such keywords usually come from
#   copying parts of an OpenAPI 3 document.
#
#   Every schema is checked once, named or inline. The rule reports on the
#   keyword, with the Swagger 2.0 way to say the same where there is one.
#
#   ```yaml
#   swagger: "2.0"
#   ...
#   Payment:
#     oneOf:                      # bad: not in Swagger 2.0
#       - $ref: '#/definitions/Card'
#       - $ref: '#/definitions/Transfer'
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2]
#   peers: ["spectral:oas2-anyOf", "spectral:oas2-oneOf", "vacuum:oas2-anyOf", "vacuum:oas2-oneOf"]
#   howToFix: |
#     Rewrite the schema with Swagger 2.0 keywords (`allOf` with a
#     `discriminator` for alternatives, `x-nullable: true` for null, `enum`
#     with one value for a constant), or move the document to OpenAPI 3,
#     where these keywords exist.
package specgate.rules["oas2-schema-keywords"]

import data.specgate.lib.correctness
import data.specgate.lib.util

_advice := {
	"anyOf": "Swagger 2.0 has allOf only; describe alternatives with allOf and a discriminator, or use OpenAPI 3",
	"oneOf": "Swagger 2.0 has allOf only; describe alternatives with allOf and a discriminator, or use OpenAPI 3",
	"not": "Swagger 2.0 has no not; use OpenAPI 3 to exclude a shape",
	"nullable": "use the x-nullable: true extension, or OpenAPI 3",
	"writeOnly": "Swagger 2.0 has readOnly only; say in the description that the value is never returned",
	"const": "use an enum with a single value",
}

violations contains util.violation(array.concat(s.source, [keyword]), msg) if {
	some keyword, advice in _advice
	some s in correctness.having(keyword)
	msg := sprintf("%s uses %s, which Swagger 2.0 does not have and its tools ignore; %s", [correctness.describe(s), keyword, advice])
}
