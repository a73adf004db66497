# METADATA
# title: Enum names are PascalCase
# description: |
#   Every enum is named in PascalCase (`^[A-Z][A-Za-z0-9]*$`), as the
#   Protocol Buffers style guide and `buf lint` (ENUM_PASCAL_CASE) ask:
#   generated code names a type after it.
#
#   ```proto
#   enum book_genre {}  // bad
#   enum BookGenre {}   // good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the enum in PascalCase, as the message suggests, before code is
#     generated from it.
package specgate.rules["proto-enum-pascal-case"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("enum %s is not PascalCase (use %q)", [x.fullName, specgate.respell(x.name, "pascal")])) if {
	some x in input.proto.enums
	not regex.match(`^[A-Z][A-Za-z0-9]*$`, x.name)
}
