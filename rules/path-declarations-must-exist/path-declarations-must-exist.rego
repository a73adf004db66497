# METADATA
# title: Path templates name their parameter
# description: |
#   Every template of a path names its parameter: `/users/{}` has a
#   template with no name, which no path parameter can fill, so the path
#   cannot be called and no request can be matched against it. It is
#   usually a name deleted by mistake.
#
#   Every path under `paths` is checked, and reported once on its key,
#   however many empty templates it has. (That every named template has a
#   path parameter is `path-parameters-defined`.)
#
#   ```yaml
#   paths:
#     /users/{}:          # bad
#       get: ...
#     /users/{userId}:
#       get: ...
#   ```
# custom:
#   category: Operations
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:path-declarations-must-exist", "vacuum:path-declarations-must-exist", "redocly:path-declaration-must-exist"]
#   howToFix: |
#     Write the parameter's name between the braces (`/users/{userId}`) and
#     declare the matching `in: path` parameter.
package specgate.rules["path-declarations-must-exist"]

import data.specgate.lib.util

violations contains util.violation(item.source, msg) if {
	some item in input.pathItems
	regex.match(`\{\s*\}`, item.path)
	msg := sprintf("path %s has an empty template {}; name the path parameter it stands for", [item.path])
}
