# METADATA
# title: Required request strings cannot be empty
# description: |
#   A string property that a request must send (listed in `required`) sets
#   a `minLength`, or otherwise rules out the empty string. `required`
#   only demands that the key is present: `{"name": ""}` satisfies it, so
#   without a minimum the API accepts a blank name, title or reference and
#   stores or acts on it, and every consumer has to guess whether an empty
#   value means "missing".
#
#   Only the request side is checked: properties of the schemas that the
#   parameters and request bodies of operations under `paths` reach.
#   `readOnly` properties are not sent and not checked. A string is not
#   reported when it sets `minLength` (also 0, an explicit choice), an
#   `enum`, a `const` or a `pattern`, or a `format` that an empty string
#   cannot have (`date`, `date-time`, `email`, `uri`, `uuid`, …). A
#   property written as a local `$ref` is judged by its target. The rule
#   reports on the property.
#
#   ```yaml
#   NewPet:
#     type: object
#     required: [name]
#     properties:
#       name: {type: string}                 # bad: "" is a valid name
#       name: {type: string, minLength: 1}   # good
#   ```
# custom:
#   category: Schemas
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["redocly:required-string-property-missing-min-length"]
#   howToFix: |
#     Add `minLength: 1` (or the real minimum) to the property, or a
#     `pattern` or `enum` that describes its values.
package specgate.rules["required-string-min-length"]

import data.specgate.lib.correctness
import data.specgate.lib.health

# violations is a list of objects built in place: a set would hash and
# order each finding (the linter drops repeats).
violations := [{"path": array.concat(s.source, ["properties", name]), "message": msg} |
	some s in object.get(input.schemasWith, "required", [])
	s.request
	names := [name | some name in s.node.required; _blank_allowed(s.node.properties[name])]
	count(names) > 0
	owner := correctness.describe(s)
	some name in names
	msg := sprintf("property %q of %s is required but accepts an empty string; set minLength", [name, owner])
]

_blank_allowed(written) if {
	prop := health.deref(written)
	_string(prop.type)
	not prop.readOnly
	not _excludes_empty(prop)
}

_string("string")

_string(types) if {
	is_array(types)
	"string" in types
	every t in types {
		t in {"string", "null"}
	}
}

_excludes_empty(prop) if {
	some key in ["minLength", "enum", "const", "pattern"]
	key in object.keys(prop)
}

_excludes_empty(prop) if prop.format in {
	"date", "date-time", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
	"json-pointer", "relative-json-pointer",
}
