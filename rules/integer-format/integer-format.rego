# METADATA
# title: Request integers state their size
# description: |
#   Every integer the API receives has a `format` that states its size:
#   `int32` or `int64` (or, from the OpenAPI format registry, `int8`,
#   `int16`, `uint8`, `uint16`, `uint32`, `uint64`). Without it, client,
#   server and database may each pick another width: a value that fits one
#   overflows or wraps in another, and overflows are classic ways around
#   limits and checks (OWASP API4:2023 Unrestricted Resource Consumption,
#   API8:2023 Security Misconfiguration).
#
#   Only the request side is checked, as the risk is about input: schemas
#   that the parameters and request bodies of operations under `paths`
#   reach, through properties, items, compositions and `$ref`s, and in
#   Swagger 2.0 the non-body parameters themselves. Response-only and
#   unused schemas, `readOnly` properties, and schemas under `not`/`if`
#   are not. Only schemas that declare `type: integer` are judged. The
#   rule reports on `format` when it names something else, else on `type`.
#
#   ```yaml
#   count:
#     type: integer               # bad
#   count:
#     type: integer
#     format: int32               # good
#   ```
# custom:
#   category: Schemas
#   maturity: Platinum
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-integer-format"]
#   howToFix: |
#     Add `format: int32` for values that fit 32 bits (counts, sizes, page
#     numbers) and `format: int64` for larger ones (ids, timestamps in
#     milliseconds, amounts in minor units).
package specgate.rules["integer-format"]

import data.specgate.lib.security
import data.specgate.lib.util

_sized := {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}

# The integers with a sized format are set aside in one call
# (specgate.partition_at) and neither clause reads them: most of a large
# API's integers state their size.
_unsized := specgate.partition_at(security.received_of.integer, ["node", "format"], "", _sized)[1]

violations contains util.violation(array.concat(v.source, ["type"]), msg) if {
	some v in _unsized
	not v.node.format
	msg := sprintf("%s is an integer without format (int32 or int64)", [security.label(v)])
}

violations contains util.violation(array.concat(v.source, ["format"]), msg) if {
	some v in _unsized
	format := v.node.format
	not format in _sized
	msg := sprintf("%s is an integer with format %q, which does not state its size (use int32 or int64)", [security.label(v), format])
}
