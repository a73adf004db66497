# METADATA
# title: No credentials in server URLs
# description: |
#   No server URL carries user information (`https://user:password@host`,
#   `https://token@host`). A credential written in the API description is
#   published with it, copied into generated clients and documentation,
#   and sent by every request that uses the server (OWASP API2:2023 Broken
#   Authentication, API8:2023 Security Misconfiguration).
#
#   The document's servers and those of path items and operations are
#   checked (Swagger: `host`). The rule reports on the URL; its message
#   leaves the credential out.
#
#   ```yaml
#   servers:
#     - url: https://deploy:s3cret@api.example.com  # bad
#     - url: https://api.example.com                # good
#   ```
# custom:
#   category: Servers
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Remove the user information from the URL and describe how clients
#     authenticate with a security scheme. Treat the credential as leaked:
#     revoke it.
package specgate.rules["no-server-url-credentials"]

import data.specgate.lib.util

_servers contains s if some s in input.servers

_servers contains s if {
	some op in input.operations
	some s in op.servers
}

_userinfo := `^([a-zA-Z{][^/:]*:)?//[^/?#@]*@`

violations contains util.violation(_where(s), msg) if {
	some s in _servers
	regex.match(_userinfo, _with_slashes(s.url))
	host := regex.replace(_with_slashes(s.url), `//[^/?#@]*@`, "//")
	msg := sprintf("server URL %s carries credentials before the host", [trim_prefix(host, "//")])
}

# Swagger hosts have no scheme; derived URLs start with one already.
_with_slashes(url) := url if contains(url, "//")

else := concat("", ["//", url])

_where(s) := array.concat(s.source, ["url"]) if not util.is_oas2

else := s.source
