# METADATA
# title: Server URL variables are defined
# description: |
#   Every `{variable}` in a server URL has an entry in the server's
#   `variables`. The URL is a template that clients fill in from those
#   definitions; without one, the variable has no default and no allowed
#   values, so clients cannot build the URL and send requests to a host
#   with braces in its name.
#
#   The servers of the document, of path items, of operations, of webhooks
#   and of callbacks are checked, each once. The rule reports on the URL,
#   naming each undefined variable.
#
#   ```yaml
#   servers:
#     - url: https://{region}.api.example.org/{version}
#       variables:
#         region: {default: eu}     # bad: version is not defined
#   ```
# custom:
#   category: Servers
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3]
#   peers: ["spectral:oas3-server-variables", "redocly:no-undefined-server-variable"]
#   howToFix: |
#     Define the variable under the server's `variables`, with a `default`
#     (and an `enum` when only some values are allowed), or write the
#     value into the URL.
package specgate.rules["server-variables-defined"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["url"]), msg) if {
	some s in correctness.all_servers
	some name in correctness.server_variables(s.url)
	not name in object.keys(object.get(s.node, "variables", {}))
	msg := sprintf("server URL %s uses {%s}, which is not defined in the server's variables", [s.url, name])
}
