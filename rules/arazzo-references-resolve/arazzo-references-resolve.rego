# METADATA
# title: Arazzo references resolve and runtime expressions parse
# description: |
#   Everything an Arazzo document names exists, and every runtime
#   expression and criterion in it parses: each source description loads
#   and is of its type; the operation each step calls (its `operationId`,
#   `operationPath` or, in 1.1, `channelPath`) is in its source; the
#   workflows named by steps, actions and `dependsOn`, the steps named by
#   `goto` actions, the reusable objects named by `reference` and the
#   path parameters a step sets exist; and each expression (`$inputs.x`,
#   `$steps.s.outputs.y`, `$response.body#/id`), condition, selector and
#   replacement target parses and names an input, an output, a step or a
#   workflow that is declared.
#
#   A document that breaks one of these cannot be run as written: a tool
#   stops at the step, or sends a misspelt expression as text. Like an
#   unresolved `$ref` in an OpenAPI description (`no-unresolved-ref`), it
#   is an error under every ruleset, lenient included. The rule reports
#   what `specgate validate` finds of this kind, where it is written;
#   `validate` also checks the document against the official schema of its
#   version and what does not leave it unrunnable (ids used twice, a
#   `dependsOn` cycle).
#
#   ```yaml
#   sourceDescriptions:
#     - name: pets
#       url: ./pets.openapi.yaml        # bad when the file does not exist
#   workflows:
#     - workflowId: adopt
#       steps:
#         - stepId: find
#           operationId: findPet        # bad: pets.openapi.yaml has getPet
#           parameters:
#             - name: id
#               in: path
#               value: $input.petId     # bad: the expression is $inputs
#   ```
# custom:
#   category: Workflows
#   maturity: Baseline
#   severity: error
#   family: integrity
#   formats: [arazzo]
#   peers: ["redocly:outputs-defined", "redocly:workflow-dependsOn"]
#   howToFix: |
#     Correct the name (the message suggests the one most likely meant), or
#     declare what it names: the source description's file, the operation,
#     the workflow's input or the step's output.
package specgate.rules["arazzo-references-resolve"]

import data.specgate.lib.util

violations contains util.violation(p.source, p.message) if {
	some p in input.arazzo.broken
}
