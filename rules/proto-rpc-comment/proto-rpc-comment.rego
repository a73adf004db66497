# METADATA
# title: RPCs have a comment
# description: |
#   Every RPC has a leading comment saying what it does. Comments are the
#   documentation of a `.proto` API: protoc carries them into generated code
#   and documentation generators publish them (`buf lint`: COMMENT_RPC).
#
#   ```proto
#   rpc GetBook(GetBookRequest) returns (Book);   // bad: no comment
#
#   // GetBook returns one book by name.
#   rpc GetBook(GetBookRequest) returns (Book);   // good
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [proto]
#   howToFix: |
#     Write a comment on the line before the RPC: what it does, what it
#     returns, the errors it gives.
package specgate.rules["proto-rpc-comment"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("rpc %s of service %s has no comment", [x.name, x.service])) if {
	some x in input.proto.rpcs
	trim_space(x.comment) == ""
}
