# METADATA
# title: Channel parameters have a description
# description: |
#   Every parameter of a channel address says in its `description` what
#   goes there (`Id of the user, as in the users API`). The name alone
#   rarely tells which identifier, which format or which casing the
#   producers use, and consumers that subscribe with a wildcard need to
#   know what each position means.
#
#   The parameters of every channel and those under
#   `components.parameters` are checked; a parameter written as a `$ref`
#   is checked once, at its definition. A description made only of
#   whitespace counts as missing. The rule reports on the parameter.
#
#   ```yaml
#   channels:
#     users/{userId}/{kind}:
#       parameters:
#         userId:                       # bad: no description
#           schema: {type: string}
#         kind:                         # good
#           description: Kind of event, as in the audit log.
#           schema: {type: string}
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-parameter-description", "vacuum:asyncapi-parameter-description"]
#   howToFix: |
#     Add a `description` saying what the value identifies and what it
#     looks like; list its allowed values in the schema (2.x) or `enum`
#     (3.x) when they are few.
package specgate.rules["asyncapi-parameter-description"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(p.source, sprintf("parameter %q of %s has no description", [p.name, p.owner])) if {
	some p in _parameters
	trim_space(object.get(p.value, "description", "")) == ""
}

_parameters contains {"name": name, "value": value, "source": ["components", "parameters", name], "owner": "components.parameters"} if {
	some name, raw in asyncapi.components("parameters")
	value := asyncapi.deref(raw)
}

# Parameters written inline in a channel; those that are $refs to
# components.parameters are checked there, others where they point.
_parameters contains {"name": name, "value": value, "source": array.concat(ch.source, ["parameters", name]), "owner": asyncapi.channel(ch)} if {
	some ch in input.channels
	some name, raw in object.get(ch.node, "parameters", {})
	not _component_ref(raw)
	value := asyncapi.deref(raw)
}

_component_ref(raw) if ["components", "parameters", _] = asyncapi.pointer_path(raw["$ref"])
