# METADATA
# title: Message names are PascalCase
# description: |
#   Every message is named in PascalCase: an upper-case letter, then letters
#   and digits (`^[A-Z][A-Za-z0-9]*$`), as the Protocol Buffers style guide
#   and `buf lint` (MESSAGE_PASCAL_CASE) ask. Generated code names a class or
#   struct after each message; one convention keeps those names predictable
#   in every language. Nested messages are checked too.
#
#   ```proto
#   message book_shelf {}  // bad
#   message BookShelf {}   // good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the message in PascalCase, as the message suggests. Renaming a
#     message breaks code generated from it (and the compatibility check
#     reports it): rename before the first release.
package specgate.rules["proto-message-pascal-case"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("message %s is not PascalCase (use %q)", [x.fullName, specgate.respell(x.name, "pascal")])) if {
	some x in input.proto.messages
	not regex.match(`^[A-Z][A-Za-z0-9]*$`, x.name)
}
