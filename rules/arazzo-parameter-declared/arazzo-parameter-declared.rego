# METADATA
# title: Arazzo steps send the parameters their operation declares
# description: |
#   Every query, header and cookie parameter a step sends to an operation
#   (its own, and its workflow's `parameters`, which apply to every step) is
#   one the operation declares in its OpenAPI description, or one its
#   security schemes send (an `apiKey`'s parameter, `Authorization` for
#   `http`, `oauth2` and `openIdConnect`). OpenAPI allows a request to carry
#   more than it declares, so the request is still sent; but a service
#   ignores what it does not know, and a misspelt name (`pet_tags` for
#   `tags`) then makes the step pass while filtering nothing.
#
#   Header names compare without case; `Accept` and `Content-Type` are
#   never reported, since OpenAPI describes them through content types, not
#   parameters. A path parameter the operation does not declare is an error
#   of the document, which `specgate validate` reports. Steps whose
#   operation does not resolve (the source does not load, the operation is
#   missing) are not judged here either. The rule reports on the parameter;
#   a workflow's parameter is reported once for each step whose operation
#   does not declare it.
#
#   ```yaml
#   steps:
#     - stepId: find-pet
#       operationId: findPetsByTags     # declares the query parameter "tags"
#       parameters:
#         - name: pet_tags              # bad: findPetsByTags has no pet_tags
#           in: query
#           value: $inputs.tags
#   ```
# custom:
#   category: Workflows
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [arazzo]
#   howToFix: |
#     Use the name and location the operation declares (the message lists
#     them), or declare the parameter in the OpenAPI description if the
#     service reads it.
package specgate.rules["arazzo-parameter-declared"]

import data.specgate.lib.util

violations contains util.violation(p.source, msg) if {
	some s in input.arazzo.steps
	op := s.operation
	op != null
	some p in s.parameters
	p["in"] in {"query", "header", "cookie"}
	not _declared(op, p)
	msg := concat("", [_subject(s, p), sprintf(": %s declares no %s parameter %q%s", [op.name, p["in"], p.name, _hint(op, p)])])
}

_declared(op, p) if {
	some d in array.concat(op.parameters, op.credentials)
	_same(d, p)
}

_declared(_, p) if {
	p["in"] == "header"
	lower(p.name) in {"accept", "content-type"}
}

_same(d, p) if {
	d["in"] == p["in"]
	d.name == p.name
}

_same(d, p) if {
	d["in"] == "header"
	p["in"] == "header"
	lower(d.name) == lower(p.name)
}

_subject(s, p) := sprintf("step %q sends %s parameter %q", [s.id, p["in"], p.name]) if not p.workflowLevel

else := sprintf("parameter %q of workflow %q is sent by step %q", [p.name, s.workflow, s.id])

# _hint names what the operation declares in the same place, or says why
# an Authorization header has no declaration.
_hint(op, p) := " (OpenAPI declares credentials as security schemes, and the operation requires none that sends it)" if {
	p["in"] == "header"
	lower(p.name) == "authorization"
} else := sprintf(" (its %s parameters: %s)", [p["in"], concat(", ", names)]) if {
	names := sort({d.name | some d in array.concat(op.parameters, op.credentials); d["in"] == p["in"]})
	count(names) > 0
} else := ""
