# METADATA
# title: Form parameters come with a form media type (Swagger 2.0)
# description: |
#   In Swagger 2.0, an operation with `in: formData` parameters consumes
#   `application/x-www-form-urlencoded` or `multipart/form-data`. Form
#   parameters only exist in those two encodings; with any other
#   `consumes` (or none), clients do not know how to send the form and
#   servers cannot read it. A `type: file` parameter needs
#   `multipart/form-data` in particular, since only multipart carries
#   files.
#
#   The operation's `consumes` counts, else the document's. Form
#   parameters inherited from the path item count too. The rule reports on
#   the operation's `consumes` when it has one, else on the first form
#   parameter (the document's `consumes` serves many operations).
#
#   ```yaml
#   post:
#     consumes: [application/json]    # bad: the form cannot be sent as JSON
#     parameters:
#       - {name: name, in: formData, type: string}
#   ```
# custom:
#   category: Requests
#   maturity: Baseline
#   severity: warn
#   family: correctness
#   formats: [oas2]
#   peers: ["spectral:oas2-operation-formData-consume-check", "vacuum:oas2-operation-formData-consume-check"]
#   howToFix: |
#     Add `application/x-www-form-urlencoded` or `multipart/form-data` (for
#     files) to the operation's `consumes`, or send the data as an
#     `in: body` parameter instead.
package specgate.rules["oas2-formdata-consumes"]

import data.specgate.lib.health
import data.specgate.lib.naming
import data.specgate.lib.util

_forms := {"application/x-www-form-urlencoded", "multipart/form-data"}

violations contains util.violation(_where(op, form), msg) if {
	some op in input.operations
	op.requestBody != null
	form := op.requestBody.formData[0]
	consumes := _consumes(op)
	count({health.base_media_type(c) | some c in consumes} & _forms) == 0
	msg := sprintf("%s has form parameters (%q) but %s; add application/x-www-form-urlencoded or multipart/form-data", [naming.operation(op), form.name, _consumes_text(consumes)])
}

violations contains util.violation(_where(op, file), msg) if {
	some op in input.operations
	op.requestBody != null
	some file in op.requestBody.formData
	file.node.type == "file"
	consumes := {health.base_media_type(c) | some c in _consumes(op)}
	"application/x-www-form-urlencoded" in consumes
	not "multipart/form-data" in consumes
	msg := sprintf("%s has the file parameter %q but does not consume multipart/form-data, the only form encoding that carries files", [naming.operation(op), file.name])
}

_consumes(op) := op.node.consumes if is_array(op.node.consumes)

else := input.document.consumes if is_array(input.document.consumes)

else := []

_consumes_text(consumes) := "consumes no media type" if count(consumes) == 0

else := sprintf("consumes only %s", [concat(", ", consumes)])

# _where is the operation's consumes, else the parameter: the document's
# consumes serves many operations, and each finding is the operation's.
_where(op, _) := array.concat(op.source, ["consumes"]) if is_array(op.node.consumes)

_where(op, param) := param.source if not is_array(object.get(op.node, "consumes", null))
