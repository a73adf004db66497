# METADATA
# title: Discriminator mappings point at schemas
# description: |
#   Every value of a `discriminator`'s `mapping` (and its `defaultMapping`,
#   OpenAPI 3.2) leads to a schema: either the name of a schema under
#   `components.schemas`, or a reference to one. Mapping values are plain
#   strings, not `$ref` objects, so a typo in them escapes the checks that
#   references get; a value that leads nowhere makes every payload with
#   that discriminator value unreadable to clients.
#
#   A value containing `/` or `#` is a reference: a local one
#   (`#/components/schemas/Dog`) must point at something in the document;
#   references to other files are not checked here. Any other value is a
#   schema name and must be a key of `components.schemas`. The rule
#   reports on the mapping entry.
#
#   ```yaml
#   discriminator:
#     propertyName: petType
#     mapping:
#       dog: '#/components/schemas/Dog'
#       cat: Kat                         # bad: no schema Kat
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3]
#   peers: ["redocly:spec-discriminator-defaultMapping"]
#   howToFix: |
#     Correct the value to the name of an existing schema, or to a
#     reference such as `#/components/schemas/Dog`, or define the missing
#     schema.
package specgate.rules["discriminator-mapping-resolves"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["discriminator", "mapping", key]), msg) if {
	some s in correctness.having("discriminator")
	some key, value in object.get(s.node.discriminator, "mapping", {})
	not _leads_to_schema(value)
	msg := sprintf("discriminator mapping %q of %s points at %q, %s", [key, correctness.describe(s), value, _why(value)])
}

violations contains util.violation(array.concat(s.source, ["discriminator", "defaultMapping"]), msg) if {
	some s in correctness.having("discriminator")
	value := s.node.discriminator.defaultMapping
	not _leads_to_schema(value)
	msg := sprintf("the defaultMapping of the discriminator of %s points at %q, %s", [correctness.describe(s), value, _why(value)])
}

_leads_to_schema(value) if {
	is_string(value)
	not _is_reference(value)
	is_object(input.document.components.schemas[value])
}

_leads_to_schema(value) if {
	_is_reference(value)
	not startswith(value, "#")
}

_leads_to_schema(value) if {
	startswith(value, "#/")
	segments := [util.unescape(urlquery.decode(seg)) | some seg in array.slice(split(value, "/"), 1, count(split(value, "/")))]
	object.get(input.document, segments, null) != null
}

_is_reference(value) if contains(value, "/")

_is_reference(value) if contains(value, "#")

_why(value) := "which does not resolve in this document" if _is_reference(value)

else := "which is not the name of a schema in components.schemas"
