# METADATA
# title: Server URLs do not end with a slash
# description: |
#   A server's URL (AsyncAPI 2) or host and pathname (AsyncAPI 3) do not
#   end with `/`. Tools join the server address and the channel address,
#   and a trailing slash there produces doubled slashes or an address that
#   differs from the one the broker knows. A host is never followed by a
#   slash in AsyncAPI 3: the path belongs in `pathname`.
#
#   Servers of the root `servers` object are checked; a pathname that is
#   only `/` is left alone. The rule reports on the field.
#
#   ```yaml
#   servers:
#     production:
#       host: broker.mycompany.com/    # bad
#       host: broker.mycompany.com     # good
#   ```
# custom:
#   category: Servers
#   maturity: Silver
#   severity: warn
#   family: structure
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-server-no-trailing-slash", "spectral:asyncapi-3-server-no-trailing-slash", "vacuum:asyncapi-3-server-no-trailing-slash"]
#   howToFix: |
#     Remove the trailing slash; in AsyncAPI 3 move any path from `host`
#     to `pathname`.
package specgate.rules["asyncapi-server-no-trailing-slash"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, [f.field]), msg) if {
	some s in input.servers
	some f in asyncapi.server_fields(s)
	endswith(f.value, "/")
	f.value != "/"
	msg := sprintf("the %s %q of %s ends with a slash", [f.field, f.value, asyncapi.server(s)])
}
