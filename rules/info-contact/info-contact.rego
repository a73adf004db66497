# METADATA
# title: The API names a contact
# description: |
#   `info.contact` says whom to ask about the API: at least one of its
#   `name`, `url` or `email` is set. Consumers with a question, a bug or a
#   security report need somewhere to go, and API catalogues show the
#   contact as the owner of the API.
#
#   Blank values count as missing. The rule reports on `info` when there is
#   no contact, on `info.contact` when it has no name, url or email, and on
#   the document root when there is no `info`.
#
#   ```yaml
#   info:
#     title: Pets
#     contact:                    # good
#       name: Pets team
#       email: pets@example.com
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:info-contact", "spectral:info-contact", "redocly:info-contact"]
#   howToFix: |
#     Add `info.contact` with the name of the owning team and a URL or an
#     email address that reaches it.
package specgate.rules["info-contact"]

import data.specgate.lib.util

violations contains util.violation([], "the document has no info object, so the API names no contact") if {
	not "info" in object.keys(input.document)
}

violations contains util.violation(["info"], "info has no contact; name who to ask about the API (name, url or email)") if {
	"info" in object.keys(input.document)
	not _has_contact
}

violations contains util.violation(["info", "contact"], "info.contact has no name, url or email") if {
	_has_contact
	not _reachable
}

_has_contact if "contact" in object.keys(input.document.info)

_reachable if {
	some key in ["name", "url", "email"]
	trim_space(input.document.info.contact[key]) != ""
}
