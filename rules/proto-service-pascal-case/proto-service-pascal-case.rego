# METADATA
# title: Service names are PascalCase
# description: |
#   Every service is named in PascalCase (`^[A-Z][A-Za-z0-9]*$`), as the
#   Protocol Buffers style guide and `buf lint` (SERVICE_PASCAL_CASE) ask.
#   The name is part of every RPC's path on the wire
#   (`/package.Service/Method`) and names the generated client and server.
#
#   ```proto
#   service book_service {}  // bad
#   service BookService {}   // good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the service in PascalCase before its first release: the name is
#     part of every call's path, so renaming it later breaks every client.
package specgate.rules["proto-service-pascal-case"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("service %s is not PascalCase (use %q)", [x.fullName, specgate.respell(x.name, "pascal")])) if {
	some x in input.proto.services
	not regex.match(`^[A-Z][A-Za-z0-9]*$`, x.name)
}
