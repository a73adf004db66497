# METADATA
# title: The AsyncAPI document names a contact
# description: |
#   `info.contact` says whom to ask about the application: the team that
#   owns its channels and messages. Consumers of an event stream need
#   someone to reach when a message changes shape or stops arriving, and
#   event catalogues show the contact as the owner.
#
#   The rule reports on `info` when it has no `contact` (or on the document
#   root when there is no `info`); what the contact holds is
#   `asyncapi-info-contact-properties`.
#
#   ```yaml
#   info:                         # bad: no contact
#     title: Account service
#     version: 1.0.0
#   ---
#   info:
#     title: Account service
#     version: 1.0.0
#     contact:                    # good
#       name: Accounts team
#       email: accounts@mycompany.com
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-info-contact", "vacuum:asyncapi-info-contact"]
#   howToFix: |
#     Add `info.contact` with the name of the owning team and a URL or an
#     email address that reaches it.
package specgate.rules["asyncapi-info-contact"]

import data.specgate.lib.util

violations contains util.violation([], "the document has no info object, so it names no contact") if {
	not is_object(object.get(input.document, "info", null))
}

violations contains util.violation(["info"], "info has no contact; name who owns the application") if {
	is_object(input.document.info)
	not is_object(object.get(input.document, ["info", "contact"], null))
}
