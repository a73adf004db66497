# METADATA
# title: Query parameters are camelCase
# description: |
#   The name of every `in: query` parameter is camelCase: a lower-case
#   letter, then letters and digits only (`^[a-z][a-zA-Z0-9]*$`). Query
#   parameters are what clients type and build most; one convention across
#   an API keeps them guessable. The rule checks casing only: `page_size`
#   fails as `pageSize` would fail a snake_case rule; teams choose one style
#   and turn on the rule that matches it.
#
#   Bracket notation is accepted when each part is camelCase:
#   `filter[createdAt]` and `ids[]` pass, `filter[created_at]` does not.
#   Names a protocol or platform defines are left alone: OData's and
#   Google's system parameters (`$filter`, `$top`, `$.xgafv`), OAuth's
#   `access_token` (RFC 6750) and `oauth_token` (RFC 5849), and
#   `api-version` (Microsoft's REST API guidelines).
#   Every query parameter is checked once, inline or reusable. The rule
#   reports on the parameter's `name` and suggests a camelCase spelling
#   when there is one.
#
#   ```yaml
#   parameters:
#     - name: page_size  # bad
#       in: query
#     - name: pageSize   # good
#       in: query
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   howToFix: |
#     Rename the parameter in camelCase, as the message suggests
#     (`page_size` becomes `pageSize`). Query parameter names are part of
#     the request: accept the old name too, or introduce the new name in a
#     new version, so that existing clients keep working.
package specgate.rules["query-parameter-camel-case"]

import data.specgate.lib.naming
import data.specgate.lib.util

# The query parameters are split from the others in one call
# (specgate.partition_at), not tested one by one in Rego.
violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in specgate.partition_at(input.parameters, ["in"], "", {"query"})[0]
	not _protocol_name(p.name)
	some part in _parts(p.name)
	not naming.is_camel(part)
	msg := sprintf("query parameter %q is not camelCase%s", [p.name, _hint(p.name)])
}

# _protocol_name holds for names a protocol or platform defines, which an
# API cannot rename: OData's system query options and Google's system
# parameters (`$filter`, `$top`, `$.xgafv`), OAuth's `access_token` (RFC
# 6750) and `oauth_token` (RFC 5849), and `api-version` (the Microsoft REST
# API Guidelines; every Azure API takes it).
_protocol_name(name) if startswith(name, "$")

_protocol_name(name) if name in {"access_token", "oauth_token", "api-version"}

# _parts splits bracket notation: "filter[createdAt]" is "filter" and
# "createdAt"; "ids[]" is "ids". A name without brackets is one part.
_parts(name) := [name] if {
	not regex.match(`^[^\[\]]+(\[[^\[\]]*\])+$`, name)
} else := [part | some part in regex.split(`[\[\]]+`, name); part != ""]

_hint(name) := sprintf(" (use %q)", [fixed]) if {
	not contains(name, "[")
	fixed := naming.camel(name)
	naming.is_camel(fixed)
} else := ""
