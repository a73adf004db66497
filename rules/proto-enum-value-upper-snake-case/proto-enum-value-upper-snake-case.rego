# METADATA
# title: Enum values are UPPER_SNAKE_CASE
# description: |
#   Every enum value is named in UPPER_SNAKE_CASE
#   (`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`), as the Protocol Buffers style guide and
#   `buf lint` (ENUM_VALUE_UPPER_SNAKE_CASE) ask. Enum values are constants
#   in generated code, and JSON carries them by name.
#
#   ```proto
#   enum Color {
#     Red = 0;          // bad
#     COLOR_RED = 1;    // good
#   }
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the value in UPPER_SNAKE_CASE, as the message suggests. JSON
#     carries enum values by name: renaming one breaks JSON clients.
package specgate.rules["proto-enum-value-upper-snake-case"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("value %s of enum %s is not UPPER_SNAKE_CASE (use %q)", [x.name, x.enumFullName, upper(specgate.respell(x.name, "snake"))])) if {
	some x in input.proto.enumValues
	not regex.match(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`, x.name)
}
