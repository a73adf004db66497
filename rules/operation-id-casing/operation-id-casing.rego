# METADATA
# title: Operation ids follow the API's casing convention
# description: |
#   Every `operationId` is written in the convention most of the API's
#   operation ids use: camelCase (`listPets`), PascalCase (`ListPets`),
#   snake_case (`list_pets`) or kebab-case (`list-pets`). Code generators
#   turn operation ids into method names; ids in one convention give one
#   consistent client, and a stray `List_pets` among `listPets` ids is
#   usually a typo.
#
#   The convention is the API's own, not a fixed one: each id that has
#   several words is classified, and the convention with strictly more ids
#   than any other is expected; on a tie nothing is reported. Parts
#   separated by `/` or `.` are namespaces and are judged one by one
#   (`repos/get-content` is kebab-case). A single lower-case word (`list`)
#   fits camelCase, snake_case and kebab-case. Operations under `paths`,
#   `webhooks` and `callbacks` are checked; the rule reports on the
#   `operationId` and suggests a spelling in the expected convention.
#
#   ```yaml
#   # most ids are camelCase
#   operationId: listPets
#   operationId: create_pet    # bad
#   operationId: createPet     # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   howToFix: |
#     Rename the operation id as the message suggests. Generated clients
#     name methods after operation ids, so the rename changes their code:
#     do it before a release, or keep the old client method as an alias.
package specgate.rules["operation-id-casing"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["operationId"]), msg) if {
	some op in style.operations
	hint := _flagged[op.operationId]
	msg := sprintf("operationId %q of %s is not %s, the convention of most operation ids in this API%s", [
		op.operationId, naming.operation(op), _convention_name, hint,
	])
}

# _flagged maps each id with a part outside the convention to the hint of
# its message. An id of the convention's class has every part in it: the
# others, a set difference, are tested part by part.
_flagged[id] := _hint(id) if {
	some id in _outside
	not specgate.parts_fit(id, _convention, _separators)
}

_outside := _ids - {id | some id in object.get(_ids_of_class, _convention, [])}

# The namespace parts of an id are the runs between "/" and "."
# ("repos/get-content" is "repos" and "get-content").
_separators := "/."

_convention_name := style.convention_names[_convention]

# _classes maps each id to the convention it is written in: that of its
# namespace parts; "mixed" when its parts disagree or one fits none. An id
# whose every part is a single lower-case word has none.
_classes := {id: c |
	some id in _ids
	c := specgate.parts_case(id, _separators)
}

_ids := {op.operationId | some op in style.operations; op.operationId != ""}

_ids_of_class := specgate.group([[c, id] | some id, c in _classes])

_counts := {c: count(object.get(_ids_of_class, c, [])) | some c, _ in style.convention_names}

_convention := style.dominant(_counts)

# _hint suggests the id with each part respelled in the convention,
# separators kept, when every part of the respelling is in it (a
# respelling of an id without separators is one part, even when empty).
_hint(id) := sprintf(" (use %q)", [fixed]) if {
	fixed := specgate.respell_parts(id, _convention, _separators)
	fixed != ""
	specgate.parts_fit(fixed, _convention, _separators)
} else := ""
