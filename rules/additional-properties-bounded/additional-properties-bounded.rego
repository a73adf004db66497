# METADATA
# title: Request maps have a maximum size
# description: |
#   Every object the API receives that allows additional properties (a
#   map such as `labels` or `metadata`, or a free-form object) has a
#   `maxProperties`. Without it a client can send a million keys in one
#   request: the API parses, stores and indexes them all (OWASP API4:2023
#   Unrestricted Resource Consumption), and hash-flooding attacks aim at
#   exactly such maps.
#
#   Only the request side is checked, as the risk is about input: schemas
#   that the parameters and request bodies of operations under `paths`
#   reach, through properties, items, compositions and `$ref`s, and not
#   `readOnly` ones. An object allows additional properties when
#   `additionalProperties` is `true` or a schema; omitting it is not
#   reported. The rule reports on `additionalProperties`.
#
#   ```yaml
#   metadata:
#     type: object
#     additionalProperties: {type: string, maxLength: 500}   # bad
#   metadata:
#     type: object
#     maxProperties: 50                                       # good
#     additionalProperties: {type: string, maxLength: 500}
#   ```
# custom:
#   category: Schemas
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-constrained-additionalProperties"]
#   howToFix: |
#     Add a `maxProperties` the API enforces, and bound the values
#     (`maxLength` for strings).
package specgate.rules["additional-properties-bounded"]

import data.specgate.lib.security
import data.specgate.lib.util

violations contains util.violation(array.concat(v.source, ["additionalProperties"]), msg) if {
	some v in object.get(security.received_with, "additionalProperties", [])
	ap := v.node.additionalProperties
	ap != false
	not _bounded(v.node)
	msg := sprintf("%s allows additional properties without maxProperties", [security.label(v)])
}

_bounded(node) if _ := node.maxProperties
