# METADATA
# title: Boolean parameters are named as questions
# description: |
#   A boolean parameter's name starts with `is`, `has`, `can` or `should`
#   followed by the next word (`isActive`, `has_children`, `can-edit`), so
#   that a reader of a URL or of generated code sees that it is a flag and
#   what `true` means: `?isArchived=true` reads as a question,
#   `?archived=true` could be a filter value and `?archive=true` an action.
#
#   Query, path and cookie parameters whose schema type is `boolean`
#   (alone or with `null`) are checked; header parameters are not, since
#   HTTP field names follow their own conventions. Each parameter is
#   checked once, where it is written. The rule reports on its `name`.
#
#   ```yaml
#   parameters:
#     - name: archived        # bad
#       in: query
#       schema: {type: boolean}
#     - name: isArchived      # good
#       in: query
#       schema: {type: boolean}
#   ```
# custom:
#   category: Naming
#   maturity: Gold
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   peers: ["redocly:boolean-parameter-prefixes"]
#   howToFix: |
#     Rename the parameter to a question its value answers: `isArchived`,
#     `hasAttachments`, `canEdit`, `shouldNotify`, in the API's case
#     convention.
package specgate.rules["boolean-parameter-prefix"]

import data.specgate.lib.util

# The parameters whose type is or lists "boolean" are found in two calls
# (specgate.matching: the type as a string, then the strings in it) rather
# than by a test of each parameter in Rego; _boolean then judges them.
violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in array.concat(
		specgate.matching(input.parameters, ["schema", "type"], "^boolean$"),
		specgate.matching(input.parameters, ["schema", "type", null], "^boolean$"),
	)
	p["in"] != "header"
	_boolean(p.schema.type)
	not regex.match(`^(is|has|can|should)[A-Z0-9_-]`, p.name)
	msg := sprintf("boolean %s parameter %q does not start with is, has, can or should", [p["in"], p.name])
}

_boolean("boolean")

_boolean(types) if {
	is_array(types)
	"boolean" in types
	every t in types {
		t in {"boolean", "null"}
	}
}
