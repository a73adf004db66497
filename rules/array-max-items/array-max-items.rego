# METADATA
# title: Request arrays have a maximum size
# description: |
#   Every array the API receives has a `maxItems`. An unbounded array lets
#   one request carry a million items: the API parses, validates, stores
#   or fans out work for each, and a single client exhausts memory, CPU or
#   a downstream service (OWASP API4:2023 Unrestricted Resource
#   Consumption). Bulk endpoints in particular need a stated batch size.
#
#   Only the request side is checked, as the risk is about input: schemas
#   that the parameters and request bodies of operations under `paths`
#   reach, through properties, items, compositions and `$ref`s, and in
#   Swagger 2.0 the non-body parameters themselves. Response-only and
#   unused schemas, `readOnly` properties, and schemas under `not`/`if`
#   are not. An array limited to an `enum` or `const` is bounded. Only
#   schemas that declare `type: array` (OpenAPI 3.1: a type array with
#   "array") are judged. The rule reports on `type`.
#
#   ```yaml
#   ids:
#     type: array                 # bad
#     items: {type: string}
#   ids:
#     type: array
#     maxItems: 100               # good
#     items: {type: string}
#   ```
# custom:
#   category: Schemas
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-array-limit"]
#   howToFix: |
#     Add a `maxItems` that the API enforces, and bound the items themselves
#     (`maxLength` for strings, `maxItems` for nested arrays).
package specgate.rules["array-max-items"]

import data.specgate.lib.security

# The findings are a list, built by specgate.violations_of from each
# item's label (security.label's value): a large API has tens of thousands
# of unbounded arrays, and each finding built in Rego (a set's hashing and
# ordering, its path, its message) cost more than finding it.
violations := specgate.violations_of(
	specgate.lacking(security.received_of.array, ["maxItems", "enum", "const"]),
	["type"], "{label} is an array without maxItems",
)
