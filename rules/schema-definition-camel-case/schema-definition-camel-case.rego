# METADATA
# title: Schema names are camelCase or PascalCase
# description: |
#   The name of every named schema (under `components.schemas`, or Swagger's
#   `definitions`) is written in camel case, lower or upper: letters and
#   digits only, starting with a letter (`^[a-zA-Z][a-zA-Z0-9]*$`), with no
#   `_`, `-`, `.` or other separator. Schema names become type names in
#   generated code and anchors in documentation; names that need no
#   mangling keep both readable.
#
#   Both `userAccount` and `UserAccount` pass; `user_account`,
#   `User-Account` and qualified names such as `io.k8s.api.core.v1.Pod` do
#   not. Every key under `components.schemas` (Swagger: `definitions`) is
#   checked, including a name that only aliases another schema with a
#   `$ref`. The rule reports on the schema's key and suggests a spelling
#   that keeps the case of the first letter.
#
#   ```yaml
#   components:
#     schemas:
#       user_account: {type: object}  # bad
#       UserAccount: {type: object}   # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   howToFix: |
#     Rename the schema as the message suggests and update every `$ref`
#     that points to it. Schema names are not sent on the wire, but they
#     name the types of generated clients.
package specgate.rules["schema-definition-camel-case"]

import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(source, msg) if {
	some [name, source] in _named
	not naming.is_camel_or_pascal(name)
	msg := sprintf("schema name %q is not camelCase or PascalCase%s", [name, _hint(name)])
}

# _named lists the named schemas from the document's keys rather than from
# input.schemas: there, a named schema first reached through a $ref of an
# earlier one is recorded at the referencing place, without its name.
_named contains [name, ["definitions", name]] if {
	util.is_oas2
	some name, _ in input.document.definitions
}

_named contains [name, ["components", "schemas", name]] if {
	not util.is_oas2
	some name, _ in input.document.components.schemas
}

_hint(name) := sprintf(" (use %q)", [fixed]) if {
	fixed := _respell(name)
	naming.is_camel_or_pascal(fixed)
} else := ""

_respell(name) := naming.pascal(name) if regex.match(`^[A-Z]`, name)

else := naming.camel(name)
