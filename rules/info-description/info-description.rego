# METADATA
# title: The API has a description
# description: |
#   `info.description` says what the API is for. It is the first thing a
#   reader of the documentation sees, and the only place to explain what
#   the API does, who it is for and how to start; titles alone rarely say
#   it.
#
#   A description made only of whitespace counts as missing. The rule
#   reports on `info`, or on the document root when there is no `info`.
#
#   ```yaml
#   info:             # bad: no description
#     title: Pets
#     version: 1.0.0
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:info-description", "spectral:info-description"]
#   howToFix: |
#     Add `info.description`: what the API does, who it is for, and where to
#     start (authentication, main resources). Markdown is allowed.
package specgate.rules["info-description"]

import data.specgate.lib.util

violations contains util.violation(["info"], "info has no description; say what the API does and who it is for") if {
	"info" in object.keys(input.document)
	not _described
}

violations contains util.violation([], "the document has no info object, so the API has no description") if {
	not "info" in object.keys(input.document)
}

_described if trim_space(input.document.info.description) != ""
