# METADATA
# title: Enum values start with the enum name
# description: |
#   Every value of an enum starts with the enum's name in UPPER_SNAKE_CASE
#   and an underscore (`COLOR_RED` in `enum Color`), as the Protocol Buffers
#   style guide and `buf lint` (ENUM_VALUE_PREFIX) ask. Enum values follow
#   C++ scoping rules: they are siblings of the enum, not members of it, so
#   two enums of one package cannot both have a value `UNKNOWN` unless each
#   is prefixed.
#
#   ```proto
#   enum Color {
#     COLOR_UNSPECIFIED = 0;
#     RED = 1;         // bad
#     COLOR_BLUE = 2;  // good
#   }
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the value with the enum's prefix, as the message suggests. JSON
#     carries enum values by name: renaming one breaks JSON clients, so do it
#     before the first release.
package specgate.rules["proto-enum-value-prefix"]

import data.specgate.lib.util

violations contains util.violation(v.source, sprintf("value %s of enum %s does not start with %s (use %q)", [v.name, v.enumFullName, prefix, sprintf("%s%s", [prefix, v.name])])) if {
	some v in input.proto.enumValues
	prefix := sprintf("%s_", [upper(specgate.respell(v.enum, "snake"))])
	not startswith(v.name, prefix)
}
