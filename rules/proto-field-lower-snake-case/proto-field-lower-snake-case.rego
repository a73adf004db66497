# METADATA
# title: Field names are lower_snake_case
# description: |
#   Every field is named in lower_snake_case (`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`),
#   as the Protocol Buffers style guide and `buf lint` (FIELD_LOWER_SNAKE_CASE)
#   ask. protoc derives the JSON name (lowerCamelCase) and each language's
#   accessor from it: a field written `userId` or `User_Name` gives JSON
#   names and accessors that differ from the rest of the API.
#
#   ```proto
#   string displayName = 1;   // bad
#   string display_name = 1;  // good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the field in lower_snake_case, as the message suggests. The number
#     identifies a field on the wire, so a rename keeps binary data
#     compatible, but it changes the JSON name and generated accessors.
package specgate.rules["proto-field-lower-snake-case"]

import data.specgate.lib.util

violations contains util.violation(x.source, sprintf("field %s of %s is not lower_snake_case (use %q)", [x.name, x.message, specgate.respell(x.name, "snake")])) if {
	some x in input.proto.fields
	not regex.match(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`, x.name)
}
