# METADATA
# title: Read operations require authentication
# description: |
#   Every operation that reads data (`get`, `head`, and OpenAPI 3.2's
#   `query`) is protected by a security requirement: its own `security`, or
#   the document's. Reading is where data leaks: an unauthenticated read of
#   user records or internal state is excessive data exposure (OWASP
#   API1:2023 Broken Object Level Authorization, API3:2023 Broken Object
#   Property Level Authorization). Public reads exist (a catalogue, a
#   health check), but they should be public by decision, visible in the
#   description.
#
#   An operation is unprotected when no requirement applies to it, or when
#   every alternative of the requirement that applies is empty
#   (`security: []`, `security: [{}]`). Operations under `paths` are
#   checked. The rule reports on the operation's `security`, or on the
#   operation when it inherits; when the document declares no security
#   requirement anywhere, it reports once, on `paths`, rather than on every
#   operation. It is a warning: many APIs have public reads;
#   `unsafe-operation-protected` is its stricter sibling for writes.
#
#   ```yaml
#   /users/{id}:
#     get:                 # bad: no requirement, none in the document
#       responses: …
#   /health:
#     get:
#       security: []       # reported too: silence it with x-lint-ignore
#   ```
# custom:
#   category: Security
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-protection-global-safe", "redocly:security-defined"]
#   howToFix: |
#     Add a `security` requirement to the operation or the document. For
#     operations that are public on purpose, silence the rule on them with
#     `x-lint-ignore: [safe-operation-protected]`.
package specgate.rules["safe-operation-protected"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

violations contains util.violation(_where(op), msg) if {
	not security.unsecured_api
	some i in _checked
	op := input.operations[i]
	reason := security.unprotected_reason(op)
	msg := sprintf("%s is not protected: it %s", [naming.operation(op), reason])
}

# An API without any security requirement is reported once.
violations contains util.violation(["paths"], msg) if {
	security.unsecured_api
	ops := [naming.operation(input.operations[i]) | some i in _checked]
	count(ops) > 0
	msg := sprintf("the API declares no security requirement at all: none of its %d read operations (such as %s) is protected", [count(ops), min(ops)])
}

# _checked are the positions of the read operations, found in one call.
_checked := specgate.positions_matching(input.operations, ["method"], `^(get|head|query)$`)[0]

_where(op) := array.concat(op.source, ["security"]) if security.own_security(op)

else := op.source
