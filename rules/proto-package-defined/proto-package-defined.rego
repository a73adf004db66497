# METADATA
# title: Files declare a package
# description: |
#   Every `.proto` file declares a package. Without one its messages,
#   enums and services live in the global namespace, where they clash with
#   those of any other file without a package, and every call's path is
#   `/Service/Method` with nothing to tell one API from another (`buf lint`:
#   PACKAGE_DEFINED).
#
#   ```proto
#   syntax = "proto3";
#   package acme.library.v1;   // good: the file's elements are acme.library.v1.*
#   ```
# custom:
#   category: Structure
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [proto]
#   howToFix: |
#     Add a `package` statement after `syntax`, named after your organization,
#     the API and its major version (`acme.library.v1`). Adding a package
#     renames every element: do it before the first release.
package specgate.rules["proto-package-defined"]

import data.specgate.lib.util

violations contains util.violation([], sprintf("file %s declares no package", [input.proto.file])) if {
	input.proto.package == ""
}
