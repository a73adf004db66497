# METADATA
# title: Operations use declared tags
# description: |
#   Every tag an operation uses is declared in the top-level `tags` list.
#   An undeclared tag has no description and no place in the order of the
#   documentation, and is often a misspelling of a declared one (`Pets`
#   beside `pets`, `user` beside `users`), which splits a group in two.
#
#   Tags are compared exactly, as documentation tools do. A document
#   without a top-level tag list is left to `tags-declared`. Operations
#   under `paths`, `webhooks` and `callbacks` are checked; the rule reports
#   on the tag in the operation's list.
#
#   ```yaml
#   tags:
#     - name: pets
#   paths:
#     /pets:
#       get:
#         tags: [Pets]     # bad: not declared
#         tags: [pets]     # good
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-tag-defined", "spectral:operation-tag-defined", "redocly:operation-tag-defined"]
#   howToFix: |
#     Use a declared tag, spelled as declared, or add the tag with a
#     description to the top-level `tags` list.
package specgate.rules["operation-tag-defined"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["tags", i]), msg) if {
	count(_declared) > 0
	some op in style.operations
	some i, tag in op.tags
	not tag in _declared
	msg := sprintf("%s uses the tag %q, which the top-level tags do not declare%s", [naming.operation(op), tag, _hint(tag)])
}

_declared := {t.name | some t in input.tags}

# _hint names a declared tag that differs only in case or separators.
_hint(tag) := sprintf(" (did you mean %q?)", [near]) if {
	near := [d | some d in _declared; _squash(d) == _squash(tag)][0]
} else := ""

_squash(s) := lower(regex.replace(s, `[\s_-]`, ""))
