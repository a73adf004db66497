# METADATA
# title: Server variables are used in the URL
# description: |
#   Every entry of a server's `variables` appears as `{name}` in the
#   server's URL. A variable that the URL does not use changes nothing:
#   clients offer a choice (a region, an environment) that has no effect,
#   which usually means the URL lost its template or the name is
#   misspelled in one of the two places.
#
#   The servers of the document, of path items, of operations, of webhooks
#   and of callbacks are checked, each once. The rule reports on the
#   unused variable.
#
#   ```yaml
#   servers:
#     - url: https://api.example.org/v1
#       variables:
#         version: {default: v1}   # bad: the URL has no {version}
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas3]
#   peers: ["spectral:oas3-server-variables"]
#   howToFix: |
#     Use the variable in the URL (`https://api.example.org/{version}`),
#     correct its name to the one the URL uses, or remove it.
package specgate.rules["server-variables-used"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["variables", name]), msg) if {
	some s in correctness.all_servers
	some name, _ in object.get(s.node, "variables", {})
	not name in correctness.server_variables(s.url)
	msg := sprintf("server variable %q is not used in the URL %s", [name, s.url])
}
