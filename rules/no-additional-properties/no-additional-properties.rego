# METADATA
# title: Request objects do not accept any property
# description: |
#   No object the API receives sets `additionalProperties: true` or
#   `additionalProperties: {}`, which accept any extra property with any
#   value. Frameworks that bind request bodies to models then let a client
#   set fields it should not (`isAdmin`, `balance`, `ownerId`): mass
#   assignment (OWASP API3:2023 Broken Object Property Level
#   Authorization). Listing the properties and closing the object keeps
#   the accepted input to what the description shows.
#
#   Only the request side is checked, as the risk is about input: schemas
#   that the parameters and request bodies of operations under `paths`
#   reach, through properties, items, compositions and `$ref`s. Omitting
#   `additionalProperties` is not reported (most APIs leave it out, and
#   the default would flag every object); a typed map
#   (`additionalProperties: {type: string}`) is a deliberate dictionary,
#   whose size `additional-properties-bounded` checks. The rule reports on
#   `additionalProperties`.
#
#   ```yaml
#   NewUser:
#     type: object
#     properties: {name: {type: string}}
#     additionalProperties: true      # bad: isAdmin: true is accepted too
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-no-additionalProperties"]
#   howToFix: |
#     Remove `additionalProperties: true` (or set it to `false`) and list
#     the properties clients may send. For a real dictionary, give the
#     values a schema and the map a `maxProperties`.
package specgate.rules["no-additional-properties"]

import data.specgate.lib.security
import data.specgate.lib.util

violations contains util.violation(array.concat(v.source, ["additionalProperties"]), msg) if {
	some v in object.get(security.received_with, "additionalProperties", [])
	written := _free_form[v.node.additionalProperties]
	msg := sprintf("%s accepts any additional property (additionalProperties: %s)", [security.label(v), written])
}

_free_form := {true: "true", {}: "{}"}
