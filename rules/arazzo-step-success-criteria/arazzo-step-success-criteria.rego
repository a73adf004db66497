# METADATA
# title: Arazzo steps that call an operation state their success criteria
# description: |
#   Every step that calls an operation lists `successCriteria`: the
#   conditions (`$statusCode == 201`, a JSONPath over the body, …) under
#   which the step succeeded and the workflow may go on. The Arazzo
#   specification leaves a step without them undefined, so each tool
#   decides for itself: specgate passes any status below 400, other runners
#   any answer at all, and a workflow then goes on after a 202 that created
#   nothing or a 204 where the next step needs a body.
#
#   A step that calls another workflow succeeds when that workflow does,
#   and is not judged. The rule reports on the step.
#
#   ```yaml
#   steps:
#     - stepId: create-order          # bad: no successCriteria
#       operationId: createOrder
#     - stepId: read-order            # good
#       operationId: getOrder
#       successCriteria:
#         - condition: $statusCode == 200
#   ```
# custom:
#   category: Workflows
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [arazzo]
#   howToFix: |
#     Add `successCriteria` with at least the status the step expects
#     (`- condition: $statusCode == 201`), and conditions on the body where
#     later steps depend on it.
package specgate.rules["arazzo-step-success-criteria"]

import data.specgate.lib.util

violations contains util.violation(s.source, msg) if {
	some s in input.arazzo.steps
	s.kind != "workflow"
	count(object.get(_step_node(s.source), "successCriteria", [])) == 0
	msg := sprintf("step %q of workflow %q has no successCriteria: what counts as success is left to the tool that runs it (specgate passes any status below 400)", [s.id, s.workflow])
}

# _step_node is the step object a source names (["workflows", i, "steps", j]).
_step_node(source) := input.document.workflows[source[1]].steps[source[3]]
