# METADATA
# title: Arazzo request body replacements set each target once
# description: |
#   The `replacements` of a step's request body set each target once.
#   Replacements apply in order, so a target set twice ends with the later
#   value: the earlier entry does nothing, and a reader takes it for what
#   is sent (often one of the two meant another target, a sibling field).
#   Targets compare as written.
#
#   The rule reports on each later replacement, naming the first.
#
#   ```yaml
#   requestBody:
#     payload: {pet: {id: 0, name: ""}}
#     replacements:
#       - {target: /pet/id, value: $inputs.id}
#       - {target: /pet/id, value: $inputs.name}   # bad: /pet/name was meant
#   ```
# custom:
#   category: Workflows
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [arazzo]
#   peers: ["redocly:requestBody-replacements-unique"]
#   howToFix: |
#     Keep one replacement per target, or correct the target the repeated
#     one was meant for.
package specgate.rules["arazzo-replacement-unique"]

import data.specgate.lib.util

violations contains util.violation(array.concat(path, [k, "target"]), msg) if {
	some i, w in input.document.workflows
	some j, s in w.steps
	reps := s.requestBody.replacements
	is_array(reps)
	path := ["workflows", i, "steps", j, "requestBody", "replacements"]
	targets := [_target(r, k) | some k, r in reps]
	some [k, first] in specgate.repeats(targets)
	msg := sprintf("step %q sets target %q again (first by replacements[%d]); only the later value is sent", [s.stepId, reps[k].target, first])
}

# _target is a replacement's target; an entry without one is unique.
_target(r, k) := r.target if is_string(r.target)

else := ["?", k]
