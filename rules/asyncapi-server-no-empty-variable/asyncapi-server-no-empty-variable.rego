# METADATA
# title: Server URLs have no empty {} variable
# description: |
#   A server's URL (AsyncAPI 2) or host and pathname (AsyncAPI 3) may hold
#   variables such as `{port}`, each described under the server's
#   `variables`. An empty `{}` names no variable, so no value can ever be
#   substituted for it and the address cannot be built.
#
#   Servers of the root `servers` object are checked. The rule reports on
#   the field holding the `{}`.
#
#   ```yaml
#   servers:
#     production:
#       url: 'broker.mycompany.com:{}'       # bad
#       url: 'broker.mycompany.com:{port}'   # good, with a variable "port"
#   ```
# custom:
#   category: Servers
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-server-no-empty-variable", "spectral:asyncapi-3-server-no-empty-variable", "vacuum:asyncapi-3-server-no-empty-variable"]
#   howToFix: |
#     Name the variable (`{port}`) and describe it under the server's
#     `variables`, or write the fixed value instead of the braces.
package specgate.rules["asyncapi-server-no-empty-variable"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, [f.field]), msg) if {
	some s in input.servers
	some f in asyncapi.server_fields(s)
	contains(f.value, "{}")
	msg := sprintf("the %s %q of %s has an empty {} variable", [f.field, f.value, asyncapi.server(s)])
}
