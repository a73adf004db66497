# METADATA
# title: A schema is not both readOnly and writeOnly
# description: |
#   No schema says both `readOnly: true` and `writeOnly: true`. A read-only
#   value is only sent by the server (responses) and a write-only value
#   only by the client (requests): a value that is both can be sent in
#   neither direction. OpenAPI 3.0 forbids the combination outright; in
#   OpenAPI 3.1 and later, where the keywords come from JSON Schema, it is
#   still a contradiction that generators and validators resolve
#   differently (some drop the property everywhere, some keep it).
#
#   Every schema is checked once, named or inline. The rule reports on
#   `writeOnly`.
#
#   ```yaml
#   password:
#     type: string
#     readOnly: true
#     writeOnly: true    # bad
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3]
#   howToFix: |
#     Keep the one that describes the value: `writeOnly` for a value
#     clients send and never read back (a password), `readOnly` for one the
#     server assigns (an id, a creation time).
package specgate.rules["readonly-writeonly-exclusive"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["writeOnly"]), msg) if {
	some s in correctness.having("writeOnly")
	s.node.writeOnly == true
	s.node.readOnly == true
	msg := sprintf("%s is both readOnly and writeOnly, so it can be sent in neither requests nor responses", [correctness.describe(s)])
}
