# METADATA
# title: Services have a comment
# description: |
#   Every service has a leading comment saying what it offers. Comments are
#   the documentation of a `.proto` API: protoc carries them into generated
#   code and documentation generators publish them (`buf lint`:
#   COMMENT_SERVICE).
#
#   ```proto
#   service LibraryService {}   // bad: no comment
#
#   // LibraryService lends books.
#   service LibraryService {}   // good
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [proto]
#   howToFix: |
#     Write a comment on the line before the service saying what it is for.
package specgate.rules["proto-service-comment"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("service %s has no comment", [x.fullName])) if {
	some x in input.proto.services
	trim_space(x.comment) == ""
}
