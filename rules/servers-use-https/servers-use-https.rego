# METADATA
# title: Servers use HTTPS
# description: |
#   Every server of the API is reached over TLS: OpenAPI server URLs start
#   with `https://`, and Swagger's `schemes` list neither `http` nor `ws`.
#   Over plain HTTP, credentials, tokens and personal data cross the
#   network readable and changeable by anyone on the path (OWASP API8:2023
#   Security Misconfiguration, API2:2023 Broken Authentication).
#
#   The document's servers and those of path items and operations are
#   checked. A URL whose scheme is a server variable is judged by the
#   variable: reported when its default or one of its `enum` values is
#   `http`. Other variables take their defaults. Relative URLs (resolved
#   against where the document is served) and servers on the local machine
#   (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`, `0.0.0.0`), which
#   serve development, are not reported. The rule reports on the URL
#   (Swagger: on the scheme in `schemes`).
#
#   ```yaml
#   servers:
#     - url: http://api.example.com/v1   # bad
#     - url: https://api.example.com/v1  # good
#     - url: http://localhost:8080       # not reported
#   ```
# custom:
#   category: Servers
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-security-hosts-https-oas3"]
#   howToFix: |
#     Serve the API over TLS and write its server URLs with `https://`
#     (Swagger: `schemes: [https]`); answer plain HTTP with a redirect or not
#     at all, and send `Strict-Transport-Security`.
package specgate.rules["servers-use-https"]

import data.specgate.lib.security
import data.specgate.lib.util

# _servers are the servers written in an OpenAPI document, once each.
_servers contains s if {
	not util.is_oas2
	some s in input.servers
}

_servers contains s if {
	some op in input.operations
	some s in op.servers
}

violations contains util.violation(array.concat(s.source, ["url"]), msg) if {
	some s in _servers
	not _scheme_variable(s)
	url := _expanded(s)
	security.plain_http(url)
	not security.loopback(url)
	msg := sprintf("server URL %s is not HTTPS", [url])
}

violations contains util.violation(array.concat(s.source, ["variables", name]), msg) if {
	some s in _servers
	name := _scheme_variable(s)
	some value in _values(s.node.variables[name])
	lower(value) in {"http", "ws"}
	msg := sprintf("server URL %s lets variable %q choose %s instead of HTTPS", [s.url, name, value])
}

# Swagger 2.0: each insecure scheme in `schemes`.
violations contains util.violation(["schemes", i], msg) if {
	util.is_oas2
	some i, scheme in object.get(input.document, "schemes", [])
	lower(scheme) in {"http", "ws"}
	not security.loopback(sprintf("%s://%s", [scheme, object.get(input.document, "host", "")]))
	msg := sprintf("the API is served over %s, not HTTPS (schemes)", [scheme])
}

# _scheme_variable is the name of the variable that stands for the URL's
# scheme, as in {protocol}://api.example.com.
_scheme_variable(s) := m[1] if {
	m := regex.find_all_string_submatch_n(`^\{([^{}]+)\}://`, s.url, 1)[0]
	s.node.variables[m[1]]
}

_values(v) := {x | some x in array.concat([object.get(v, "default", "")], object.get(v, "enum", []))}

# _expanded is the URL with each variable replaced by its default.
_expanded(s) := strings.replace_n(
	{sprintf("{%s}", [name]): sprintf("%v", [object.get(v, "default", "")]) | some name, v in object.get(s.node, "variables", {})},
	s.url,
)
