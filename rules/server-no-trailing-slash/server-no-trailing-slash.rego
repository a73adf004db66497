# METADATA
# title: Server URLs do not end with a slash
# description: |
#   No server URL ends with `/` (other than the relative root `/`), and in
#   Swagger 2.0 neither `host` nor `basePath` (other than `/`) does. Paths
#   start with a slash, and clients join the server URL and the path: a
#   trailing slash gives `https://api.example.com//pets`, which many
#   servers treat as another resource or refuse.
#
#   The servers of the document, of path items and of operations are
#   checked, each once. The rule reports on the `url` (Swagger 2.0: `host`
#   or `basePath`).
#
#   ```yaml
#   servers:
#     - url: https://api.example.com/v1/   # bad
#     - url: https://api.example.com/v1    # good
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas3-server-trailing-slash", "vacuum:oas2-host-trailing-slash", "spectral:oas3-server-trailing-slash", "spectral:oas2-host-trailing-slash", "redocly:no-server-trailing-slash"]
#   howToFix: |
#     Remove the trailing slash from the server URL (Swagger 2.0: from
#     `host` or `basePath`).
package specgate.rules["server-no-trailing-slash"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["url"]), msg) if {
	not util.is_oas2
	some s in style.servers
	_trailing(s.url)
	msg := sprintf("server URL %s ends with a slash; joined with a path it gives \"//\"", [s.url])
}

violations contains util.violation([key], msg) if {
	util.is_oas2
	some key in ["host", "basePath"]
	value := input.document[key]
	_trailing(value)
	msg := sprintf("%s %s ends with a slash; joined with a path it gives \"//\"", [key, value])
}

_trailing(url) if {
	is_string(url)
	endswith(url, "/")
	url != "/"
}
