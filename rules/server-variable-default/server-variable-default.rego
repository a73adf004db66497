# METADATA
# title: Server variables have a default among their values
# description: |
#   Every server variable has a `default`, and when it lists allowed
#   values in `enum`, the list is not empty and holds the default. Clients
#   build the server URL from the defaults unless told otherwise: a
#   missing default leaves the URL unbuildable, and a default outside the
#   enum sends every client to a server the API itself says is not
#   allowed. OpenAPI 3.1 makes both a MUST (3.0 only recommends the enum
#   to hold the default); an empty enum allows no value at all.
#
#   The servers of the document, of path items, of operations, of webhooks
#   and of callbacks are checked, each once. The rule reports on the
#   default, on the empty enum, or on the variable without a default.
#
#   ```yaml
#   variables:
#     region:
#       enum: [eu, us]
#       default: asia      # bad: not one of the enum
#   ```
# custom:
#   category: Servers
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3]
#   peers: ["spectral:oas3-server-variables", "redocly:no-server-variables-empty-enum"]
#   howToFix: |
#     Give the variable a `default` that is one of its `enum` values, add
#     the default to the enum, or remove an empty enum.
package specgate.rules["server-variable-default"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["variables", name]), msg) if {
	some s in correctness.all_servers
	some name, v in object.get(s.node, "variables", {})
	is_object(v)
	not "default" in object.keys(v)
	msg := sprintf("server variable %q of %s has no default; clients need one to build the URL", [name, s.url])
}

violations contains util.violation(array.concat(s.source, ["variables", name, "enum"]), msg) if {
	some s in correctness.all_servers
	some name, v in object.get(s.node, "variables", {})
	v.enum == []
	msg := sprintf("server variable %q of %s has an empty enum, which allows no value", [name, s.url])
}

violations contains util.violation(array.concat(s.source, ["variables", name, "default"]), msg) if {
	some s in correctness.all_servers
	some name, v in object.get(s.node, "variables", {})
	is_array(v.enum)
	count(v.enum) > 0
	"default" in object.keys(v)
	not v["default"] in v.enum
	msg := sprintf("the default %s of server variable %q of %s is not one of its enum values (%s)", [json.marshal(v["default"]), name, s.url, concat(", ", [sprintf("%v", [e]) | some e in v.enum])])
}
