# METADATA
# title: Arazzo workflows have a summary or a description
# description: |
#   Every workflow says what it achieves, in its `summary` or its
#   `description`. A workflow is a use case of the APIs it calls, and the
#   documents that publish it (portals, catalogues, the agents that pick a
#   workflow for a task) show these texts to say which one fits; a bare
#   `workflowId` rarely says it, nor in which order or under which
#   conditions the steps run.
#
#   Texts made only of whitespace count as missing. The rule reports on the
#   workflow's `workflowId`, or on the workflow when it has none.
#
#   ```yaml
#   workflows:
#     - workflowId: adopt-pet           # bad: no summary, no description
#       steps: []
#     - workflowId: buy-pet             # good
#       summary: Find an available pet and place an order for it.
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [arazzo]
#   howToFix: |
#     Add a `summary` (one line: what the workflow achieves) or a
#     `description` (what it needs, what it produces, when to use it).
#     Markdown is allowed in the description.
package specgate.rules["arazzo-workflow-description"]

import data.specgate.lib.util

violations contains util.violation(_place(i, w), msg) if {
	some i, w in input.document.workflows
	is_object(w)
	not _text(w, "summary")
	not _text(w, "description")
	msg := sprintf("workflow %q has no summary and no description; say what it achieves", [object.get(w, "workflowId", sprintf("#%d", [i]))])
}

_text(w, key) if trim_space(w[key]) != ""

_place(i, w) := ["workflows", i, "workflowId"] if "workflowId" in object.keys(w)

else := ["workflows", i]
