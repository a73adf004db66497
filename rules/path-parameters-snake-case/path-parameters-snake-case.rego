# METADATA
# title: Path parameters are snake_case
# description: |
#   The name of every `in: path` parameter is snake_case: lower-case letters
#   and digits, words joined by single underscores, starting with a letter
#   (`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`). Path parameter names appear in the
#   path templates, in generated client code and in documentation; one
#   convention keeps them predictable.
#
#   Every path parameter is checked once, whether written inline or
#   reusable (under `components.parameters` or Swagger's `parameters`). The
#   rule reports on the parameter's `name` and suggests a snake_case
#   spelling when there is one.
#
#   ```yaml
#   parameters:
#     - name: userId   # bad
#       in: path
#     - name: user_id  # good
#       in: path
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   howToFix: |
#     Rename the parameter in snake_case, as the message suggests, and
#     rename the `{template}` of every path that uses it to match. The name
#     of a path parameter is not sent on the wire, so the rename does not
#     change requests, but it changes generated client code.
package specgate.rules["path-parameters-snake-case"]

import data.specgate.lib.naming
import data.specgate.lib.util

# Each spelling is judged once, then reported on every path parameter
# that has it: a large API repeats a few hundred names in tens of
# thousands of parameters. The path parameters are split from the others
# once, in one call (specgate.partition_at), for both.
violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in _path_parameters
	msg := _messages[p.name]
}

_path_parameters := specgate.partition_at(input.parameters, ["in"], "", {"path"})[0]

_messages := {name: msg |
	some name in {p.name | some p in _path_parameters}
	not naming.is_snake(name)
	msg := sprintf("path parameter %q is not snake_case%s", [name, _hint(name)])
}

_hint(name) := sprintf(" (use %q)", [fixed]) if {
	fixed := naming.snake(name)
	naming.is_snake(fixed)
} else := ""
