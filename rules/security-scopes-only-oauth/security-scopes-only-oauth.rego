# METADATA
# title: Only OAuth requirements list scopes (Swagger 2.0, OpenAPI 3.0)
# description: |
#   In Swagger 2.0 and OpenAPI 3.0, a security requirement lists scopes
#   only for OAuth 2.0 schemes (3.0: and OpenID Connect); for any other
#   scheme the list must be empty. Scopes written on an API key or HTTP
#   scheme look like an authorization check, but the specification gives
#   them no meaning: tools ignore them, and the operation is less protected
#   than its description suggests (OWASP API5:2023 Broken Function Level
#   Authorization). OpenAPI 3.1 allows role names there, and is not
#   checked.
#
#   The document's `security` and the `security` of every operation are
#   checked; requirements on undefined schemes are left to
#   `security-schemes-defined`. The rule reports on the scheme inside the
#   requirement.
#
#   ```yaml
#   security:
#     - apiKey: [admin]     # bad in OpenAPI 3.0: apiKey has no scopes
#     - apiKey: []          # good
#   ```
# custom:
#   category: Security
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3.0]
#   howToFix: |
#     Empty the list. If access depends on roles, describe them in the
#     operation's description, move to OAuth 2.0 scopes, or upgrade to
#     OpenAPI 3.1, where the list may name roles.
package specgate.rules["security-scopes-only-oauth"]

import data.specgate.lib.security
import data.specgate.lib.util

violations contains util.violation(array.concat(alt.source, [entry.name]), msg) if {
	some req in security.requirements
	some alt in req.alternatives
	some entry in alt.schemes
	count(entry.scopes) > 0
	scheme := security.schemes[entry.name]
	not scheme.type in _scoped_types
	msg := sprintf("security scheme %q is of type %s, whose list of scopes must be empty in %s", [entry.name, _type(scheme), _version])
}

_scoped_types := {"oauth2"} if util.is_oas2

else := {"oauth2", "openIdConnect"}

_version := "Swagger 2.0" if util.is_oas2

else := "OpenAPI 3.0"

_type(scheme) := "basic" if {
	util.is_oas2
	scheme.type == "http"
} else := scheme.type
