# METADATA
# title: Component names use the allowed characters
# description: |
#   The names of reusable objects under `components` (schemas, responses,
#   parameters, examples, request bodies, headers, security schemes, links,
#   callbacks, path items, media types) use only letters, digits, `.`, `-`
#   and `_`. OpenAPI 3 requires component names to match
#   `^[a-zA-Z0-9\.\-_]+$`: they appear in `$ref` pointers and become class
#   and constant names in generated code, where a space, a slash (written
#   `~1` in a pointer) or a non-ASCII letter breaks tools.
#
#   Only OpenAPI 3 documents are checked: Swagger 2.0 sets no rule for the
#   names of its definitions. The rule reports on the name.
#
#   ```yaml
#   components:
#     schemas:
#       Pet Owner: {type: object}   # bad: a space
#       PetOwner: {type: object}
#   ```
# custom:
#   category: Structure
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3]
#   peers: ["redocly:spec-components-invalid-map-name"]
#   howToFix: |
#     Rename the component with letters, digits, `.`, `-` and `_` only, and
#     update every `$ref` that points at it.
package specgate.rules["component-names-valid"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(["components", kind, name], msg) if {
	some kind, word in correctness.component_kinds
	some name, _ in object.get(input.document, ["components", kind], {})
	not regex.match(`^[a-zA-Z0-9.\-_]+$`, name)
	msg := sprintf("%s name %q has characters other than letters, digits, '.', '-' and '_'", [word, name])
}
