# METADATA
# title: Server URLs do not end with a slash
# description: |
#   A server URL (Swagger 2.0: `basePath`) does not end with `/`. Paths
#   start with a slash and are appended to the server URL as they are, so
#   `https://api.example.org/v1/` and `/pets` make
#   `https://api.example.org/v1//pets`, which many servers and gateways
#   route differently or reject. A URL that is only `/` is fine. A Swagger
#   2.0 `host` is a host name and port only, never followed by a slash.
#
#   The servers of the document, of path items, of operations, of webhooks
#   and of callbacks are checked, each once. The rule reports on the URL,
#   `basePath` or `host`.
#
#   ```yaml
#   servers:
#     - url: https://api.example.org/v1/   # bad
#     - url: https://api.example.org/v1
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas3-server-trailing-slash", "spectral:oas2-host-trailing-slash", "vacuum:oas3-server-trailing-slash", "vacuum:oas2-host-trailing-slash", "redocly:no-server-trailing-slash"]
#   howToFix: |
#     Remove the trailing slash from the URL or `basePath`; in Swagger 2.0,
#     move any path out of `host` into `basePath`.
package specgate.rules["server-trailing-slash"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["url"]), msg) if {
	some s in correctness.all_servers
	_trailing(s.url)
	msg := sprintf("server URL %s ends with a slash; paths appended to it get a double slash", [s.url])
}

violations contains util.violation(["basePath"], msg) if {
	util.is_oas2
	_trailing(input.document.basePath)
	msg := sprintf("basePath %s ends with a slash; paths appended to it get a double slash", [input.document.basePath])
}

violations contains util.violation(["host"], msg) if {
	util.is_oas2
	is_string(input.document.host)
	contains(input.document.host, "/")
	msg := sprintf("host %s contains a slash; host is a host name and port only, paths go in basePath", [input.document.host])
}

_trailing(url) if {
	is_string(url)
	endswith(url, "/")
	url != "/"
}
