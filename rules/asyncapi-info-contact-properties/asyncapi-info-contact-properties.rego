# METADATA
# title: The contact has a name, a URL and an email
# description: |
#   `info.contact` gives all three ways to reach the owners: a `name` (the
#   team, so the contact survives people moving on), a `url` (a page,
#   channel or issue tracker) and an `email`. Each serves different
#   readers: a consumer with an outage wants the chat channel, a partner
#   wants an address to write to.
#
#   Only a contact that exists is checked (`asyncapi-info-contact` asks for
#   one); blank values count as missing. The rule reports on
#   `info.contact`, listing the missing fields.
#
#   ```yaml
#   info:
#     contact:                    # bad: no url, no email
#       name: Accounts team
#   ---
#   info:
#     contact:                    # good
#       name: Accounts team
#       url: https://mycompany.com/teams/accounts
#       email: accounts@mycompany.com
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-info-contact-properties", "vacuum:asyncapi-info-contact-properties"]
#   howToFix: |
#     Fill in the missing `name`, `url` or `email` of `info.contact`.
package specgate.rules["asyncapi-info-contact-properties"]

import data.specgate.lib.util

violations contains util.violation(["info", "contact"], msg) if {
	contact := input.document.info.contact
	is_object(contact)
	missing := [f | some f in ["name", "url", "email"]; not _filled(contact, f)]
	count(missing) > 0
	msg := sprintf("info.contact has no %s", [concat(", ", missing)])
}

_filled(contact, f) if trim_space(contact[f]) != ""
