# METADATA
# title: Arazzo step outputs are read
# description: |
#   Every output a step declares is read by something of its workflow: a
#   later step's parameters or request body, a criterion, an action, or the
#   workflow's own `outputs` (`$steps.<stepId>.outputs.<name>`). A step's
#   outputs are visible in its workflow only, so one that nothing reads is
#   computed and dropped: usually the workflow meant to hand it on (as one
#   of its outputs, for the workflows that call it or depend on it) or a
#   later step reads a misspelt name.
#
#   Expressions written under `components` (reusable actions and
#   parameters) count for every workflow. The rule reports on the output.
#
#   ```yaml
#   steps:
#     - stepId: login
#       operationId: loginUser
#       outputs:
#         token: $response.body#/token          # good: read below
#         expiresAt: $response.header.X-Expires # bad: nothing reads it
#     - stepId: list
#       operationId: listPets
#       parameters:
#         - {name: Authorization, in: header, value: 'Bearer {$steps.login.outputs.token}'}
#   ```
# custom:
#   category: Workflows
#   maturity: Gold
#   severity: warn
#   family: correctness
#   formats: [arazzo]
#   howToFix: |
#     Read the output where it is needed, expose it as an output of the
#     workflow (`outputs: {expiresAt: $steps.login.outputs.expiresAt}`), or
#     remove it.
package specgate.rules["arazzo-step-output-unused"]

import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["outputs", name]), msg) if {
	some s in input.arazzo.steps
	some name, _ in input.document.workflows[s.source[1]].steps[s.source[3]].outputs
	not _read(s.workflow, s.id, name)
	msg := sprintf("output %q of step %q is never read: nothing in workflow %q uses $steps.%s.outputs.%s", [name, s.id, s.workflow, s.id, name])
}

_read(wid, sid, name) if {
	some u in input.arazzo.uses
	u.kind == "steps"
	u.workflow in {wid, ""}
	u.id == sid
	_names(u.name, name)
}

# _names tells whether an expression's name reads the output: the output
# itself, or a member of it ($steps.s.outputs.pet.id).
_names(read, name) if read == name

_names(read, name) if startswith(read, concat("", [name, "."]))
