# METADATA
# title: RPC names are PascalCase
# description: |
#   Every RPC is named in PascalCase (`^[A-Z][A-Za-z0-9]*$`), as the Protocol
#   Buffers style guide and `buf lint` (RPC_PASCAL_CASE) ask. The name is the
#   last part of the call's path on the wire and names the generated
#   methods.
#
#   ```proto
#   rpc get_book(GetBookRequest) returns (Book);  // bad
#   rpc GetBook(GetBookRequest) returns (Book);   // good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the RPC in PascalCase before its first release: renaming it
#     later breaks every client calling it.
package specgate.rules["proto-rpc-pascal-case"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("rpc %s of service %s is not PascalCase (use %q)", [x.name, x.service, specgate.respell(x.name, "pascal")])) if {
	some x in input.proto.rpcs
	not regex.match(`^[A-Z][A-Za-z0-9]*$`, x.name)
}
