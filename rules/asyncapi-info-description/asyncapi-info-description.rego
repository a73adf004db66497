# METADATA
# title: The AsyncAPI document has a description
# description: |
#   `info.description` introduces the application: what it does, which
#   events it produces and consumes, how to get access. Documentation
#   generators show it as the front page; without it readers meet a list
#   of channels with no context.
#
#   A description made only of whitespace counts as missing. The rule
#   reports on `info` (or on the document root when there is no `info`).
#
#   ```yaml
#   info:                         # bad: no description
#     title: Account service
#     version: 1.0.0
#   ---
#   info:
#     title: Account service
#     version: 1.0.0
#     description: |              # good
#       Publishes the life cycle of user accounts: sign-ups, changes and
#       deletions.
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-info-description", "vacuum:asyncapi-info-description"]
#   howToFix: |
#     Add `info.description` with a paragraph on what the application does
#     and who it is for. Markdown is allowed.
package specgate.rules["asyncapi-info-description"]

import data.specgate.lib.util

violations contains util.violation([], "the document has no info object, so it has no description") if {
	not is_object(object.get(input.document, "info", null))
}

violations contains util.violation(["info"], "info has no description; say what the application does") if {
	is_object(input.document.info)
	trim_space(object.get(input.document.info, "description", "")) == ""
}
