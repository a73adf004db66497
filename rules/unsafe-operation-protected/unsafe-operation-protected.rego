# METADATA
# title: Unsafe operations require authentication
# description: |
#   Every operation that changes data (`post`, `put`, `patch`, `delete`)
#   is protected by a security requirement: its own `security`, or the
#   document's. An operation that anyone can call to create, change or
#   delete data is the first thing an attacker tries (OWASP API2:2023
#   Broken Authentication, API5:2023 Broken Function Level Authorization).
#   When it is public on purpose, the description should say so where a
#   reviewer sees it, not by omission.
#
#   An operation is unprotected when no requirement applies to it, or when
#   every alternative of the requirement that applies is empty
#   (`security: []`, `security: [{}]`). A requirement with a non-empty
#   alternative beside `{}` makes authentication optional; the rule
#   `unsafe-operation-no-anonymous` reports that. Operations under `paths`
#   are checked (webhooks and callbacks are calls the API makes). The rule
#   reports on the operation's `security`, or on the operation when it
#   inherits; when the document declares no security requirement anywhere,
#   it reports once, on `paths`, rather than on every operation.
#
#   ```yaml
#   /pets:
#     post:
#       security: []         # bad: anyone may create pets
#     delete:
#       security:            # good
#         - oauth: [pets:write]
#   ```
# custom:
#   category: Security
#   maturity: Bronze
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-protection-global-unsafe", "redocly:security-defined"]
#   howToFix: |
#     Add a `security` requirement naming a scheme, to the operation or to
#     the whole document. If the operation is public by design (signing up,
#     requesting a token), keep it so and silence the rule on it with
#     `x-lint-ignore: [unsafe-operation-protected]`.
package specgate.rules["unsafe-operation-protected"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

violations contains util.violation(_where(op), msg) if {
	not security.unsecured_api
	some i in _checked
	op := input.operations[i]
	reason := security.unprotected_reason(op)
	msg := sprintf("%s changes data but is not protected: it %s", [naming.operation(op), reason])
}

# An API without any security requirement is reported once.
violations contains util.violation(["paths"], msg) if {
	security.unsecured_api
	ops := [naming.operation(input.operations[i]) | some i in _checked]
	count(ops) > 0
	msg := sprintf("the API declares no security requirement at all: none of its %d unsafe operations (such as %s) is protected", [count(ops), min(ops)])
}

# _checked are the positions of the unsafe operations, found in one call.
_checked := specgate.positions_matching(input.operations, ["method"], `^(post|put|patch|delete)$`)[0]

_where(op) := array.concat(op.source, ["security"]) if security.own_security(op)

else := op.source
