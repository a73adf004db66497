# METADATA
# title: Tag parents exist and do not loop (OpenAPI 3.2)
# description: |
#   A tag's `parent` (OpenAPI 3.2) names another tag of the document's
#   `tags`, and following parents from any tag never comes back to it.
#   Documentation tools build a navigation tree from parents: an unknown
#   parent leaves the tag out of the tree (or makes up a group nobody
#   describes), and a loop has no root at all.
#
#   The rule reports on `parent`: for an unknown tag, and for each tag of
#   a loop.
#
#   ```yaml
#   tags:
#     - name: cats
#       parent: animals      # bad: no tag "animals"
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3.2]
#   peers: ["redocly:spec-no-invalid-tag-parents"]
#   howToFix: |
#     Declare the parent tag, correct `parent` to the name of an existing
#     tag, or break the loop by removing the `parent` of the tag meant to be
#     the root.
package specgate.rules["tag-parents"]

import data.specgate.lib.util

_names := {t.name | some t in input.tags}

_parents := {t.name: [t.node.parent] | some t in input.tags; is_string(t.node.parent)}

violations contains util.violation(array.concat(t.source, ["parent"]), msg) if {
	some t in input.tags
	is_string(t.node.parent)
	not t.node.parent in _names
	msg := sprintf("the parent %q of tag %q is not a tag of the document", [t.node.parent, t.name])
}

violations contains util.violation(array.concat(t.source, ["parent"]), msg) if {
	some t in input.tags
	is_string(t.node.parent)
	t.name in graph.reachable(_parents, {t.node.parent})
	msg := sprintf("the parents of tag %q lead back to it; tag parents must form a tree", [t.name])
}
