# METADATA
# title: Arazzo workflow inputs are read
# description: |
#   Every input that a workflow's `inputs` schema declares is read
#   somewhere: by an expression of the workflow (`$inputs.name` in its
#   parameters, request bodies, criteria, actions and outputs), or by
#   `$workflows.<workflowId>.inputs.name` anywhere in the document. An input
#   that nothing reads is asked of every caller (in `--inputs` files, in the
#   parameters of the steps that call the workflow) for nothing; more often
#   it means that a step forgot to pass it on, with a literal written where
#   `$inputs.name` was meant.
#
#   Expressions written under `components` count for every workflow, since
#   any workflow may use them. An inputs schema that does not list its
#   properties (one built with `allOf`, `anyOf` or `oneOf`) is not judged.
#   The rule reports on the input's property in the schema.
#
#   ```yaml
#   workflows:
#     - workflowId: find-pet
#       inputs:
#         type: object
#         properties:
#           status: {type: string}      # good: read below
#           storeId: {type: string}     # bad: nothing reads $inputs.storeId
#       steps:
#         - stepId: search
#           operationId: findPetsByStatus
#           parameters:
#             - {name: status, in: query, value: $inputs.status}
#   ```
# custom:
#   category: Workflows
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [arazzo]
#   howToFix: |
#     Read the input where it is meant to go (`value: $inputs.storeId`), or
#     remove it from the inputs schema.
package specgate.rules["arazzo-input-unused"]

import data.specgate.lib.util

violations contains util.violation(i.source, msg) if {
	some w in input.arazzo.workflows
	some i in w.inputs
	not _read(w.id, i.name)
	msg := sprintf("input %q of workflow %q is never read: nothing in the document uses $inputs.%s in the workflow or $workflows.%s.inputs.%s", [i.name, w.id, i.name, w.id, i.name])
}

_read(wid, name) if {
	some u in input.arazzo.uses
	u.kind == "inputs"
	u.workflow in {wid, ""}
	_names(u.name, name)
}

_read(wid, name) if {
	some u in input.arazzo.uses
	u.kind == "workflows"
	u.field == "inputs"
	u.id == wid
	_names(u.name, name)
}

# _names tells whether an expression's name reads the input: the input
# itself, or a member of it ($inputs.pet.id).
_names(read, name) if read == name

_names(read, name) if startswith(read, concat("", [name, "."]))
