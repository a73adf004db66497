# METADATA
# title: Service names end in Service
# description: |
#   Every service name ends in `Service` (`LibraryService`), as `buf lint`
#   (SERVICE_SUFFIX, STANDARD category) and Google's API design guide ask:
#   generated code then names the client `LibraryServiceClient`, and a
#   service is told apart from the messages beside it.
#
#   ```proto
#   service Library {}         // bad
#   service LibraryService {}  // good
#   ```
# custom:
#   category: Naming
#   maturity: Gold
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Add the suffix before the first release: the service name is part of
#     every call's path, so renaming it later breaks every client.
package specgate.rules["proto-service-suffix"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("service %s should end in Service (%sService)", [x.fullName, x.name])) if {
	some x in input.proto.services
	not endswith(x.name, "Service")
}
