# METADATA
# title: Server variables match the server's URL
# description: |
#   Every `{name}` in a server's URL (AsyncAPI 2) or host and pathname
#   (AsyncAPI 3) is described under the server's `variables`, every
#   variable there is used, and a variable's `default` is one of its `enum`
#   values when it has both. Otherwise tools cannot build the address to
#   connect to: an undescribed expression has no value, an unused variable
#   misleads readers, and a default outside the enum is a value the API
#   itself rules out.
#
#   Servers of the root `servers` object are checked (with their targets
#   when they are `$ref`s, and variables written as `$ref`s resolved). A
#   missing variable is reported on the field that uses it, an unused one
#   where it is written, a default outside the enum on the default.
#
#   ```yaml
#   servers:
#     production:
#       url: '{region}.broker.mycompany.com:{port}'   # bad: no variable "port"
#       protocol: mqtt
#       variables:
#         region:
#           enum: [eu, us]
#           default: asia                           # bad: not in enum
#     test:
#       url: '{region}.test.mycompany.com'          # good
#       protocol: mqtt
#       variables:
#         region:
#           enum: [eu, us]
#           default: eu
#   ```
# custom:
#   category: Servers
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-server-variables", "vacuum:asyncapi-server-variables"]
#   howToFix: |
#     Describe each `{name}` under `variables` (with a `default`, and an
#     `enum` when only some values are valid), remove variables the URL
#     does not use, and make the default one of the enum values.
package specgate.rules["asyncapi-server-variables"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, [f.field]), msg) if {
	some s in input.servers
	some f in asyncapi.server_fields(s)
	some name in asyncapi.expressions(f.value)
	name != ""
	not name in object.keys(_variables(s))
	msg := sprintf("%s uses {%s} in its %s, but defines no variable %q", [asyncapi.server(s), name, f.field, name])
}

violations contains util.violation(array.concat(s.source, ["variables", name]), msg) if {
	some s in input.servers
	some name, _ in _variables(s)
	not name in {n | some f in asyncapi.server_fields(s); some n in asyncapi.expressions(f.value)}
	msg := sprintf("variable %q of %s is not used in its %s", [name, asyncapi.server(s), _fields_label])
}

violations contains util.violation(array.concat(s.source, ["variables", name, "default"]), msg) if {
	some s in input.servers
	some name, raw in _variables(s)
	v := asyncapi.deref(raw)
	is_array(v.enum)
	"default" in object.keys(v)
	not v["default"] in v.enum
	msg := sprintf("the default %q of variable %q of %s is not one of its enum values", [v["default"], name, asyncapi.server(s)])
}

_variables(s) := v if {
	v := asyncapi.deref(s.node.variables)
	is_object(v)
} else := {}

_fields_label := "url" if asyncapi.v2

_fields_label := "host or pathname" if asyncapi.v3
