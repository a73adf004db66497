# METADATA
# title: Schema property names follow one convention
# description: |
#   Every property name of every schema follows the API's convention:
#   camelCase (a lower-case letter, then letters and digits only,
#   `^[a-z][a-zA-Z0-9]*$`), or snake_case (`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
#   when the API is written in snake_case. One convention across the
#   payloads of an API spares clients from mapping each field by hand.
#
#   camelCase is expected, as JavaScript and most JSON style guides use it,
#   unless more of the document's distinct property names are snake_case
#   (lower case with an underscore) than camelCase (lower case with a hump):
#   then snake_case is expected, and the names that break it are reported.
#   A snake_case API such as GitHub's is not flagged property by property;
#   its camelCase stragglers are. Single-word names (`id`) fit both.
#   Likewise PascalCase is expected when more names are PascalCase with a
#   hump (`OrderId`, as .NET serializers wrote them) than either.
#
#   Every schema of the document is checked once, named or inline, except
#   the schemas written inline under a form (`application/x-www-form-urlencoded`,
#   `multipart/…`) or XML media type: their properties are form fields or
#   XML elements, not JSON properties. A named schema is checked even when
#   only forms use it, since telling would need every place that references
#   it. Names that follow another convention on purpose are exempt: names
#   starting with `@` (JSON-LD `@id`, OData `@odata.count`), `odata.`
#   (OData 3's annotations, `odata.nextLink`), `$` (`$schema`) or `x-`
#   (extensions, in schemas that describe OpenAPI documents), and the HAL
#   link containers `_links` and `_embedded`, and names of digits only
#   (keys of data, such as Meraki's SSID numbers). A dotted name is a key of
#   another namespace written part by part (PostgreSQL's
#   `pg_stat_statements.track`, a host name): each part is judged. The
#   rule reports once per property, on its key under `properties`, and
#   suggests a spelling in the convention when there is one.
#
#   ```yaml
#   properties:
#     first_name: {type: string}  # bad
#     firstName: {type: string}   # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   peers: ["vacuum:camel-case-properties"]
#   howToFix: |
#     Rename the property in camelCase, as the message suggests
#     (`first_name` becomes `firstName`). Renaming a property of a published
#     API breaks its clients: introduce the new name in a new version.
package specgate.rules["json-property-names"]

import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(array.concat(schema.source, ["properties", name]), msg) if {
	count(_misfits) > 0
	some schema in _json_schemas
	some name in object.keys(schema.node.properties) & _misfits
	msg := sprintf("property %q%s is not %s%s", [name, _of(schema), _convention_text, _hint(name)])
}

# _json_schemas are the schemas with properties that describe JSON. (An
# array: a set of schemas would compare and sort whole schema trees.)
_json_schemas := [schema |
	some schema in object.get(input.schemasWith, "properties", [])
	is_object(schema.node.properties)
	not _under_non_json_media(schema.source)
]

# _names are the distinct property names the rule judges. (The names of
# each schema are taken as one set, and joined, before the names are
# looked at one by one: a large API writes the same few names thousands
# of times.)
_names contains name if {
	some name in union({object.keys(schema.node.properties) | some schema in _json_schemas})
	not _exempt(name)
}

# _misfits are the distinct names that break the convention: judged once
# each, not once per schema that uses them.
_misfits contains name if {
	some name in _names
	not _fits(name)
}

_snake_names := count({n | some n in _names; contains(n, "_"); naming.is_snake(n)})

_camel_names := count({n | some n in _names; regex.match(`^[a-z]+[0-9]*[A-Z]`, n); naming.is_camel(n)})

_pascal_names := count({n | some n in _names; regex.match(`^[A-Z][a-z]+[0-9]*[A-Z]`, n); _is_pascal(n)})

# _convention is snake_case or PascalCase when names in it outnumber the
# camelCase ones and each other.
_convention := "snake" if {
	_snake_names > _camel_names
	_snake_names >= _pascal_names
} else := "pascal" if {
	_pascal_names > _camel_names
	_pascal_names > _snake_names
} else := "camel"

_convention_text := "camelCase" if _convention == "camel"

else := "snake_case, the convention of most property names in this API" if _convention == "snake"

else := "PascalCase, the convention of most property names in this API"

# A dotted name is a key of another namespace written part by part (OData
# 3's `odata.nextLink`, PostgreSQL's `pg_stat_statements.track`, a host name
# such as `registry.digitalocean.com`): each part follows the convention.
_fits(name) if {
	not contains(name, ".")
	_fits_word(name)
}

_fits(name) if {
	contains(name, ".")
	parts := [p | some p in split(name, "."); p != ""]
	count(parts) > 0
	every p in parts {
		_fits_word(p)
	}
}

_fits_word(name) if {
	_convention == "camel"
	naming.is_camel(name)
}

_fits_word(name) if {
	_convention == "snake"
	naming.is_snake(name)
}

_fits_word(name) if {
	_convention == "pascal"
	_is_pascal(name)
}

_is_pascal(s) if regex.match(`^[A-Z][a-zA-Z0-9]*$`, s)

_exempt(name) if startswith(name, "@")

_exempt(name) if startswith(name, "$")

_exempt(name) if startswith(name, "odata.")

# A name of digits only is a key of data (Meraki's per-SSID policies,
# "0" to "14"), with no words to spell in any case.
_exempt(name) if regex.match(`^[0-9]+$`, name)

_exempt(name) if startswith(name, "x-")

_exempt(name) if name in {"_links", "_embedded"}

# _under_non_json_media holds for a schema written inside the schema of a
# form or XML media type: its source passes content/<media type>/schema.
_under_non_json_media(source) if {
	some i, key in source
	key == "content"
	source[i + 2] == "schema"
	regex.match(`(?i)^(application/x-www-form-urlencoded|multipart/[^;]+|[^/;]+/([^;]*\+)?xml)\s*(;.*)?$`, source[i + 1])
}

_of(schema) := sprintf(" of schema %s", [schema.name]) if schema.name != ""

else := ""

_hint(name) := sprintf(" (use %q)", [fixed]) if {
	fixed := concat(".", [_respelled(p) | some p in split(name, ".")])
	_fits(fixed)
} else := ""

_respelled(word) := naming.camel(word) if _convention == "camel"

else := naming.snake(word) if _convention == "snake"

else := naming.pascal(word)
