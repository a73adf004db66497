# METADATA
# title: Packages end in a version
# description: |
#   The last part of a package is a major version (`v1`, `v2`), optionally
#   with a stability suffix (`v1beta1`, `v2alpha`, `v1test`), as `buf lint`
#   (PACKAGE_VERSION_SUFFIX) and Google's API design guide ask. A versioned
#   package lets a breaking version live beside the one clients use:
#   `acme.library.v2` next to `acme.library.v1`, rather than one package
#   whose every change must stay compatible forever.
#
#   ```proto
#   package acme.library;      // bad
#   package acme.library.v1;   // good
#   ```
# custom:
#   category: Naming
#   maturity: Gold
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Add the major version as the package's last part (`acme.library.v1`)
#     before the first release.
package specgate.rules["proto-package-version-suffix"]

import data.specgate.lib.util

violations contains util.violation(input.proto.packageSource, sprintf("package %s does not end in a version such as %s.v1", [pkg, pkg])) if {
	pkg := input.proto.package
	pkg != ""
	parts := split(pkg, ".")
	not regex.match(`^v[0-9]+(p[0-9]+)?((alpha|beta)[0-9]*)?(test[a-z0-9]*)?$`, parts[count(parts) - 1])
}
