# METADATA
# title: AsyncAPI 2 security requirements name defined schemes
# description: |
#   Each name in a security requirement of an AsyncAPI 2 server, operation
#   or operation trait is a security scheme defined under
#   `components.securitySchemes`. The specification requires it: a
#   requirement that names an undefined scheme tells clients to
#   authenticate in a way nobody describes, and tools that generate
#   clients or check access fail on it.
#
#   The rule reports on the offending name, suggesting a defined scheme
#   that differs only in case. AsyncAPI 3 lists the schemes themselves (or
#   `$ref`s to them) instead of names; a broken `$ref` there is reported by
#   `no-unresolved-ref`.
#
#   ```yaml
#   servers:
#     production:
#       url: broker.mycompany.com
#       protocol: kafka-secure
#       security:
#         - saslScram: []      # bad: not under components.securitySchemes
#         - certs: []          # good
#   components:
#     securitySchemes:
#       certs: {type: X509}
#   ```
# custom:
#   category: Security
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2]
#   peers: ["spectral:asyncapi-operation-security", "spectral:asyncapi-server-security", "vacuum:asyncapi-server-security", "redocly:security-defined"]
#   howToFix: |
#     Define the scheme under `components.securitySchemes` with its `type`
#     and details, or correct the name in the requirement (names are case
#     sensitive).
package specgate.rules["asyncapi-security-defined"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(l.source, [i, name]), msg) if {
	some l in asyncapi.security_lists
	some i, requirement in l.list
	some name, _ in requirement
	not name in object.keys(asyncapi.security_schemes)
	msg := sprintf("%s requires security scheme %q, which is not defined in components.securitySchemes%s", [l.owner, name, _hint(name)])
}

_hint(name) := sprintf(" (did you mean %q?)", [min(near)]) if {
	near := {defined | some defined, _ in asyncapi.security_schemes; lower(defined) == lower(name)}
	count(near) > 0
} else := ""
