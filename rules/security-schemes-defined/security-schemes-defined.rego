# METADATA
# title: Security requirements name defined schemes
# description: |
#   Every security scheme named in a security requirement is defined in
#   `components.securitySchemes` (Swagger: `securityDefinitions`). A
#   requirement naming an undefined scheme leaves the operation's
#   authentication undescribed: clients cannot tell how to authenticate and
#   tools reject or ignore the requirement.
#
#   The document's `security` and the `security` of every operation (under
#   `paths`, `webhooks` and `callbacks`) are checked. Names are compared
#   exactly. A name that contains `/` or `#` is a URI reference to a scheme
#   (OpenAPI 3.2), which a component name cannot be, and is not checked
#   here. The rule reports on the scheme's key inside the requirement.
#
#   ```yaml
#   security:
#     - oauth: [read]   # bad: only "OAuth2" is defined
#   components:
#     securitySchemes:
#       OAuth2: {type: oauth2, flows: {}}
#   ```
# custom:
#   category: Security
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas3-operation-security-defined", "vacuum:oas2-operation-security-defined", "spectral:oas3-operation-security-defined", "spectral:oas2-operation-security-defined", "redocly:security-defined"]
#   howToFix: |
#     Define the scheme under `components.securitySchemes` (Swagger:
#     `securityDefinitions`), or correct the name in the requirement to the
#     one of an existing scheme, respecting its case.
package specgate.rules["security-schemes-defined"]

import data.specgate.lib.util

_defined := {s.name | some s in input.securitySchemes}

_requirements contains input.security if input.security != null

_requirements contains op.security if {
	some op in util.http_operations
	op.security != null
}

violations contains util.violation(array.concat(alt.source, [scheme.name]), msg) if {
	some req in _requirements
	some alt in req.alternatives
	some scheme in alt.schemes
	not scheme.name in _defined
	not regex.match(`[/#]`, scheme.name)
	msg := sprintf("security scheme %q is not defined in %s%s", [scheme.name, _where, _hint(scheme.name)])
}

_where := "securityDefinitions" if util.is_oas2

else := "components.securitySchemes"

_hint(name) := sprintf(" (did you mean %q?)", [min(near)]) if {
	near := {defined | some defined in _defined; lower(defined) == lower(name)}
	count(near) > 0
} else := ""
