# METADATA
# title: Packages are lower_snake_case
# description: |
#   A package is dot-separated lower_snake_case words
#   (`acme.library.v1`), as the Protocol Buffers style guide and `buf lint`
#   (PACKAGE_LOWER_SNAKE_CASE) ask. The package becomes a namespace, module
#   or directory in generated code, where upper-case letters are unusual or
#   clash on case-insensitive file systems.
#
#   ```proto
#   package Acme.Library.V1;   // bad
#   package acme.library.v1;   // good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the package in lower case, as the message suggests. Renaming a
#     package renames every element of the file and every call's path: do it
#     before the first release.
package specgate.rules["proto-package-lower-snake-case"]

import data.specgate.lib.util

violations contains util.violation(input.proto.packageSource, sprintf("package %s is not lower_snake_case (use %q)", [pkg, suggested])) if {
	pkg := input.proto.package
	pkg != ""
	not regex.match(`^[a-z][a-z0-9]*(_[a-z0-9]+)*(\.[a-z][a-z0-9]*(_[a-z0-9]+)*)*$`, pkg)
	suggested := concat(".", [specgate.respell(p, "snake") | some p in split(pkg, ".")])
}
