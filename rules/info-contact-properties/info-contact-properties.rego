# METADATA
# title: The contact names a team and a way to reach it
# description: |
#   `info.contact` has a `name` (who owns the API) and a `url` or an
#   `email` (how to reach them), and what it gives is usable: the `url` is
#   an absolute `http` or `https` URL and the `email` an address
#   (`name@domain`). A contact with only a name cannot be reached, and one
#   with only an address does not say who answers.
#
#   A contact with none of `name`, `url` and `email` is left to
#   `info-contact`; blank values count as missing. The rule reports on
#   `info.contact` for a missing property, and on the property for a value
#   that is not usable.
#
#   ```yaml
#   info:
#     contact:
#       email: pets-team         # bad: no name, and not an address
#     contact:
#       name: Pets team          # good
#       email: pets-team@acme.dev
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:contact-properties", "spectral:contact-properties"]
#   howToFix: |
#     Give the name of the owning team, and a support page URL or an email
#     address that reaches it.
package specgate.rules["info-contact-properties"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(["info", "contact"], "info.contact has no name; say which team owns the API") if {
	_reachable_or_named
	_blank("name")
}

violations contains util.violation(["info", "contact"], "info.contact has no url or email; say how to reach the team") if {
	_reachable_or_named
	_blank("url")
	_blank("email")
}

violations contains util.violation(["info", "contact", "url"], msg) if {
	not _blank("url")
	url := _contact.url
	not regex.match(`^https?://[^\s/?#]+[^\s]*$`, url)
	msg := sprintf("info.contact.url %q is not an absolute http or https URL", [url])
}

violations contains util.violation(["info", "contact", "email"], msg) if {
	not _blank("email")
	email := _contact.email
	not regex.match(`^[^\s@]+@[^\s@]+\.[^\s@]+$`, trim_prefix(email, "mailto:"))
	msg := sprintf("info.contact.email %q is not an email address", [email])
}

_contact := input.document.info.contact

_blank(key) if style.blank(object.get(_contact, key, ""))

_reachable_or_named if {
	is_object(_contact)
	some key in ["name", "url", "email"]
	not _blank(key)
}
