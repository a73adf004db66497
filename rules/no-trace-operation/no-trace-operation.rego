# METADATA
# title: No TRACE operations
# description: |
#   The API describes no `trace` operation. TRACE echoes the request back,
#   headers included: a script that can send it reads `Cookie` and
#   `Authorization` values it could not see otherwise (cross-site
#   tracing), and the echo helps attackers map the proxies in front of the
#   API. It is a debugging method that production APIs disable (OWASP
#   API8:2023 Security Misconfiguration); describing it suggests it is
#   enabled.
#
#   Operations under `paths` are checked. The rule reports on the
#   operation.
#
#   ```yaml
#   /pets:
#     trace:                 # bad
#       responses: …
#   ```
# custom:
#   category: Operations
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas3]
#   howToFix: |
#     Remove the `trace` operation and make sure the server and its proxies
#     refuse TRACE requests (405 or 501).
package specgate.rules["no-trace-operation"]

import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(op.source, msg) if {
	some op in input.operations
	op.method == "trace"
	msg := sprintf("%s is described; TRACE echoes requests, credentials included, back to the caller", [naming.operation(op)])
}
