# METADATA
# title: File names are lower_snake_case
# description: |
#   A `.proto` file is named in lower_snake_case (`book_shelf.proto`), as the
#   Protocol Buffers style guide and `buf lint` (FILE_LOWER_SNAKE_CASE) ask.
#   Generated files are named after it, and other files import it by that
#   name: mixed case breaks on case-insensitive file systems and in
#   languages that derive module names from it.
#
#   ```
#   BookShelf.proto    # bad
#   book_shelf.proto   # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the file in lower_snake_case, as the message suggests, and update
#     the imports that name it.
package specgate.rules["proto-file-lower-snake-case"]

import data.specgate.lib.util

violations contains util.violation([], sprintf("file name %s is not lower_snake_case (use %q)", [name, sprintf("%s.proto", [specgate.respell(base, "snake")])])) if {
	name := input.proto.file
	base := trim_suffix(name, ".proto")
	not regex.match(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`, base)
}
