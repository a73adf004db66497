# METADATA
# title: Servers are not placeholder example domains
# description: |
#   A server whose host is `example.com`, `example.org` or `example.net` (or
#   a subdomain of one) is a placeholder: these domains are reserved for
#   documentation (RFC 2606) and no broker runs there. A published
#   document should name the real servers, or leave them out.
#
#   The host is read from a 2.x server's `url` (with or without a scheme)
#   and from a 3.x server's `host`; a host that merely contains the words,
#   such as `myexample.com`, is not reported. The rule reports on the field.
#
#   ```yaml
#   servers:
#     production:
#       host: broker.example.com         # bad: a placeholder
#       host: broker.mycompany.com       # good
#   ```
# custom:
#   category: Servers
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-server-not-example-com", "spectral:asyncapi-3-server-not-example-com", "vacuum:asyncapi-3-server-not-example-com"]
#   howToFix: |
#     Replace the placeholder with the real host of the broker, or use a
#     server variable for a host each user fills in.
package specgate.rules["asyncapi-server-not-example-com"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, [f.field]), msg) if {
	some s in input.servers
	some f in asyncapi.server_fields(s)
	f.field in {"url", "host"}
	host := _host(f.value)
	regex.match(`(^|\.)example\.(com|org|net)$`, lower(host))
	msg := sprintf("%s points at the placeholder host %q", [asyncapi.server(s), host])
}

# _host strips a scheme, user info, port and path from a URL or host.
_host(v) := h if {
	no_scheme := regex.replace(v, `^[A-Za-z][A-Za-z0-9+.-]*://`, "")
	no_user := regex.replace(no_scheme, `^[^/@]*@`, "")
	h := regex.split(`[:/?#]`, no_user)[0]
}
