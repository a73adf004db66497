# METADATA
# title: Every $ref resolves
# description: |
#   Every `$ref` of the document points to something that exists: the file
#   it names can be read and parsed, and the JSON pointer after `#` leads to
#   a value in it. An unresolved reference leaves a hole in the API
#   description: tools either fail on it or silently treat the referenced
#   part as anything.
#
#   All references of every file the document reaches are checked, in the
#   entry file and in the files it references. A chain of references that
#   only leads back to itself (`A: {$ref: B}`, `B: {$ref: A}`) never
#   reaches a value and is reported too; a recursive schema, which does
#   reach a value, is fine. A remote reference (`http://…`) is reported as
#   unresolved unless remote references are allowed
#   (`--allow-remote-refs`). The rule reports on each `$ref`, in the file
#   where it is written, with the reason it does not resolve.
#
#   ```yaml
#   schema:
#     $ref: '#/components/schemas/Pets'  # bad: only "Pet" is defined
#   ```
# custom:
#   category: References
#   maturity: Baseline
#   severity: error
#   family: integrity
#   formats: [oas2, oas3, asyncapi2, asyncapi3]
#   peers: ["redocly:no-unresolved-refs"]
#   howToFix: |
#     Fix the reference: correct the file path (relative to the file the
#     `$ref` is written in) or the JSON pointer (`#/components/schemas/Pet`,
#     with `~1` for `/` and `~0` for `~` in keys), or add the missing
#     component.
package specgate.rules["no-unresolved-ref"]

import data.specgate.lib.integrity
import data.specgate.lib.util

violations contains util.violation(array.concat(r.path, ["$ref"]), _message(r)) if {
	some r in integrity.unresolved_refs
	r.file == ""
}

# A reference written in another file of the document is reported there.
violations contains {"path": array.concat(r.path, ["$ref"]), "message": _message(r), "file": r.file} if {
	some r in integrity.unresolved_refs
	r.file != ""
}

_message(r) := r.error if r.error != ""

else := sprintf("$ref %q does not resolve", [r.ref])
