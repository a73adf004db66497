# METADATA
# title: Responses do not return passwords
# description: |
#   No schema that a response returns has a password property
#   (`password`, `newPassword`, `password_hash`, `passphrase`, …) unless
#   the property is `writeOnly`. A password, or its hash, in a response is
#   excessive data exposure: it lands in client logs, caches and browser
#   storage, and a hash can be cracked offline (OWASP API3:2023 Broken
#   Object Property Level Authorization, formerly API3:2019 Excessive Data
#   Exposure). The usual cause is one schema shared by request and
#   response without `writeOnly` on the password.
#
#   Schemas that the responses of operations under `paths` reach are
#   checked, through properties, items, compositions and `$ref`s. A
#   property counts when its name contains the word `password`, `passwd`
#   or `passphrase` and ends with it or with `hash`, `salt`, `digest` or
#   `confirmation` (`password_expires_at` and `has_password` do not), and
#   its schema is not typed as something other than a string. A property
#   written as a `$ref` is not judged (the schema it points to is not a
#   password field of its own). The rule reports on the property.
#
#   ```yaml
#   User:
#     properties:
#       password: {type: string}                  # bad in a response
#       password: {type: string, writeOnly: true} # good
#   ```
# custom:
#   category: Schemas
#   maturity: Bronze
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Mark the property `writeOnly: true` (OpenAPI 3; in Swagger 2.0 use
#     separate request and response schemas), or remove it from the
#     schemas that responses use. When the API issues the credential on
#     purpose (a generated one-time password, returned once), silence the
#     rule there with `x-lint-ignore: [no-password-in-response]`.
package specgate.rules["no-password-in-response"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

# The schemas written as properties are indexed by the property's name
# (security.property_schemas): the few names like a password are read, then
# those of their schemas that responses reach, not every response schema.
violations contains util.violation(s.source, msg) if {
	some name, props in _properties
	contains(lower(name), "pass")
	_password(name)
	some s in props
	_response(s)
	not s.node.writeOnly
	_string_like(s.node)
	msg := sprintf("property %q of %s sends a password in responses; mark it writeOnly unless the API issues it on purpose", [name, _owner(s.source)])
}

_properties := security.property_schemas

_response(s) if s.response

# _owner names the schema that holds the property.
_owner(source) := security.schema_label({"name": name, "node": {}, "source": owner}) if {
	owner := array.slice(source, 0, count(source) - 2)
	name := _component_name(owner)
}

_component_name(owner) := owner[2] if {
	count(owner) == 3
	owner[0] == "components"
	owner[1] == "schemas"
} else := owner[1] if {
	count(owner) == 2
	owner[0] == "definitions"
} else := ""

_secret_words := {"password", "passwd", "passphrase"}

_password(name) if {
	words := [lower(w) | some w in naming.words(name)]
	some w in words
	w in _secret_words
	last := words[count(words) - 1]
	last in (_secret_words | {"hash", "salt", "digest", "confirmation"})
}

_string_like(prop) if not prop.type

_string_like(prop) if security.has_type(prop, "string")
