# METADATA
# title: OAuth and OpenID Connect URLs use HTTPS
# description: |
#   The URLs of OAuth 2.0 flows (`authorizationUrl`, `tokenUrl`,
#   `refreshUrl`, `deviceAuthorizationUrl`), OpenID Connect discovery
#   (`openIdConnectUrl`) and OAuth metadata (`oauth2MetadataUrl`) use
#   `https://`. These endpoints receive client secrets, authorization codes
#   and passwords and return tokens: over plain `http://` anyone on the
#   network path can read or change them, and OAuth 2.0 (RFC 6749) requires
#   TLS for them (OWASP API2:2023 Broken Authentication, API8:2023 Security
#   Misconfiguration).
#
#   Relative URLs (resolved against the server) and URLs on the local
#   machine (`localhost`, `127.0.0.1`, `[::1]`) are not reported. The rule
#   reports on the URL.
#
#   ```yaml
#   clientCredentials:
#     tokenUrl: http://auth.example.com/token   # bad
#     tokenUrl: https://auth.example.com/token  # good
#   ```
# custom:
#   category: Security
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Serve the authorization server over TLS and write its URLs with
#     `https://`.
package specgate.rules["oauth-urls-https"]

import data.specgate.lib.security
import data.specgate.lib.util

_flow_urls := {"authorizationUrl", "tokenUrl", "refreshUrl", "deviceAuthorizationUrl"}

# OpenAPI 3 flows.
violations contains util.violation(array.concat(s.source, ["flows", flow, key]), msg) if {
	some s in input.securitySchemes
	s.type == "oauth2"
	some flow, f in s.node.flows
	some key in _flow_urls
	url := f[key]
	_insecure(url)
	msg := sprintf("%s of the %s flow of security scheme %q is not HTTPS: %s", [key, flow, s.name, url])
}

# Swagger 2.0 flows, OpenID Connect discovery and OAuth metadata.
violations contains util.violation(array.concat(s.source, [key]), msg) if {
	some s in input.securitySchemes
	some key in {"authorizationUrl", "tokenUrl", "openIdConnectUrl", "oauth2MetadataUrl"}
	url := s.node[key]
	_insecure(url)
	msg := sprintf("%s of security scheme %q is not HTTPS: %s", [key, s.name, url])
}

_insecure(url) if {
	is_string(url)
	security.plain_http(url)
	not security.loopback(url)
}
