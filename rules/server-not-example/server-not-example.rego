# METADATA
# title: Servers are not example domains
# description: |
#   No server points at a domain reserved for examples by RFC 2606 and
#   RFC 6761: `example.com`, `example.net`, `example.org` or a host under
#   them, or a host in the `.example` top-level domain. Such a server is a
#   placeholder left from a template: clients, mocks and "try it" buttons
#   send requests nowhere.
#
#   The servers of the document, of path items and of operations are
#   checked, each once; in Swagger 2.0, `host`. Templates in the host are
#   kept as written (`{region}.example.com` is reported). The rule reports
#   on the `url` (Swagger 2.0: `host`).
#
#   ```yaml
#   servers:
#     - url: https://api.example.com/v1   # bad
#     - url: https://api.acme.dev/v1      # good
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas3-host-not-example", "vacuum:oas2-host-not-example", "spectral:oas3-server-not-example.com", "spectral:oas2-host-not-example", "redocly:no-server-example.com"]
#   howToFix: |
#     Replace the placeholder with the address the API is served at, or
#     with a server variable whose default is that address.
package specgate.rules["server-not-example"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["url"]), msg) if {
	not util.is_oas2
	some s in style.servers
	host := style.host(s.url)
	_example(host)
	msg := sprintf("server URL %s points at %s, a domain reserved for examples", [s.url, host])
}

violations contains util.violation(["host"], msg) if {
	util.is_oas2
	host := lower(input.document.host)
	_example(split(host, ":")[0])
	msg := sprintf("host %s is a domain reserved for examples", [input.document.host])
}

_example(host) if regex.match(`(^|\.)example\.(com|net|org)\.?$`, host)

_example(host) if regex.match(`(^|\.)example\.?$`, host)
