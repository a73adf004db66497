# METADATA
# title: Unsafe operations do not allow anonymous calls
# description: |
#   No operation that changes data (`post`, `put`, `patch`, `delete`)
#   lists the empty alternative `{}` in its security requirement beside a
#   real one. `{}` makes authentication optional: a call without
#   credentials is accepted too, so the scheme beside it protects nothing
#   unless the implementation adds checks the description does not show
#   (OWASP API2:2023 Broken Authentication, API5:2023 Broken Function
#   Level Authorization).
#
#   Operations under `paths` are checked, with their own requirement or the
#   document's. The rule reports on the `{}`: once for the document's
#   requirement, naming how many unsafe operations inherit it, and once per
#   operation for an operation's own. A requirement made only of empty
#   alternatives is reported by `unsafe-operation-protected` instead.
#
#   ```yaml
#   post:
#     security:
#       - oauth: [pets:write]
#       - {}             # bad: anyone may also call it without a token
#   ```
# custom:
#   category: Security
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-protection-global-unsafe-strict"]
#   howToFix: |
#     Remove the `{}` alternative from the requirement of unsafe
#     operations. When the document's requirement must allow anonymous reads,
#     give unsafe operations their own requirement without `{}`.
package specgate.rules["unsafe-operation-no-anonymous"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

_unsafe contains op if {
	some op in input.operations
	op.method in {"post", "put", "patch", "delete"}
	op.security != null
	some alt in op.security.alternatives
	count(alt.schemes) > 0
}

violations contains util.violation(alt.source, msg) if {
	some op in _unsafe
	security.own_security(op)
	some alt in op.security.alternatives
	count(alt.schemes) == 0
	msg := sprintf("%s changes data but its security requirement also allows anonymous calls ({})", [naming.operation(op)])
}

violations contains util.violation(alt.source, msg) if {
	inheriting := [naming.operation(op) | some op in _unsafe; not security.own_security(op)]
	count(inheriting) > 0
	some alt in input.security.alternatives
	count(alt.schemes) == 0
	msg := sprintf("the document's security requirement allows anonymous calls ({}) to %d unsafe operations that inherit it, such as %s", [count(inheriting), min(inheriting)])
}
