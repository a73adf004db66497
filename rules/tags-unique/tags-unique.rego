# METADATA
# title: Tag names are unique
# description: |
#   Each tag of the document's top-level `tags` list has a name no other
#   tag has. The specification requires tag names to be unique: operations
#   refer to tags by name, so with two entries of one name the description,
#   external docs (and in OpenAPI 3.2 the parent and kind) an operation's
#   tag stands for are ambiguous, and documentation tools show the group
#   twice or drop one entry.
#
#   Names are compared exactly. The rule reports on the name of every tag
#   after the first of each name.
#
#   ```yaml
#   tags:
#     - name: pets
#       description: Everything about pets
#     - name: pets          # bad: already declared
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:openapi-tags-uniqueness", "redocly:no-duplicated-tag-names"]
#   howToFix: |
#     Merge the entries into one tag with the combined description, or
#     rename one of them and the operations that use it.
package specgate.rules["tags-unique"]

import data.specgate.lib.util

# _names are the tags' names in order (null for a tag without one, which
# is not compared). specgate.repeats finds each name an earlier tag has,
# with the first such tag, in one pass, where comparing every tag with
# every other grows with the square of the tags.
_names := [object.get(t, "name", null) | some t in input.tags]

violations contains util.violation(array.concat(input.tags[i].source, ["name"]), msg) if {
	some [i, first] in specgate.repeats(_names)
	name := _names[i]
	name != null
	msg := sprintf("tag %q is declared twice (tags %d and %d); tag names are unique", [name, first, i])
}
