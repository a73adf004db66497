# METADATA
# title: Servers are not example hosts
# description: |
#   No server points at `example.com`, `example.org`, `example.net` or one
#   of their subdomains (Swagger 2.0: `host`). These names are reserved for
#   documentation (RFC 2606) and serve no API: a server left on them is a
#   placeholder that was never replaced, so generated clients, "try it"
#   consoles and contract tests send their requests nowhere.
#
#   The servers of the document, of path items, of operations, of webhooks
#   and of callbacks are checked, each once. The rule reports on the URL or
#   `host`.
#
#   ```yaml
#   servers:
#     - url: https://api.example.com/v1     # bad: a placeholder
#   ```
# custom:
#   category: Servers
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas3-server-not-example.com", "spectral:oas2-host-not-example", "vacuum:oas3-host-not-example", "vacuum:oas2-host-not-example", "redocly:no-server-example.com"]
#   howToFix: |
#     Replace the placeholder with the API's real address, or with a
#     relative URL (`/v1`) when the API is served from where the
#     description is.
package specgate.rules["server-not-example"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["url"]), msg) if {
	some s in correctness.all_servers
	host := lower(regex.find_all_string_submatch_n(`^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#]+)`, s.url, 1)[0][1])
	_example(host)
	msg := sprintf("server URL %s points at %s, a host reserved for examples", [s.url, host])
}

violations contains util.violation(["host"], msg) if {
	util.is_oas2
	host := lower(split(input.document.host, ":")[0])
	_example(host)
	msg := sprintf("host %s is reserved for examples; give the API's real host", [input.document.host])
}

_example(host) if regex.match(`(^|\.)example\.(com|org|net)$`, host)
