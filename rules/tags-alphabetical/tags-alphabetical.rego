# METADATA
# title: Tags are listed in alphabetical order
# description: |
#   The top-level `tags` list is in alphabetical order of tag names,
#   compared without case. Documentation tools show the groups of
#   operations in the order of this list; an alphabetical list lets readers
#   find a group without scanning them all, and keeps additions from
#   landing in arbitrary places.
#
#   A list in the order of a plain sort of the names (upper case before
#   lower case, `Zoo` before `apes`) is accepted too. Otherwise the rule
#   reports each tag whose name sorts, without case, before the name of the
#   tag listed just above it, on that tag. A team that orders its tags on
#   purpose (by importance, or by the steps of a workflow) should turn this
#   rule off.
#
#   ```yaml
#   tags:
#     - name: stores
#     - name: pets      # bad: "pets" sorts before "stores"
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:openapi-tags-alphabetical", "spectral:openapi-tags-alphabetical", "redocly:tags-alphabetical"]
#   howToFix: |
#     Sort the entries of the top-level `tags` list by name.
package specgate.rules["tags-alphabetical"]

import data.specgate.lib.util

violations contains util.violation(tag.source, msg) if {
	not _sorted_by_code_points
	some i, tag in input.tags
	i > 0
	above := input.tags[i - 1]
	lower(tag.name) < lower(above.name)
	msg := sprintf("tag %q is listed after %q; list tags in alphabetical order", [tag.name, above.name])
}

# _sorted_by_code_points holds for a list sorted with upper case before
# lower case ("Zoo" before "apes"), as a plain sort of the names gives it:
# that order is accepted too.
_sorted_by_code_points if {
	names := [t.name | some t in input.tags]
	names == sort(names)
}
