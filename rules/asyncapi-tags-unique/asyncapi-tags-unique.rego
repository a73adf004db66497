# METADATA
# title: Tag names are unique in each tag list
# description: |
#   A tag list names each tag once. AsyncAPI requires the names of the
#   document's tags to be unique, and a repeated tag anywhere else is at
#   best noise: documentation shows the item twice in one group, and when
#   the two entries carry different descriptions readers cannot tell which
#   one holds.
#
#   Every tag list is checked: the document's (`tags` in 2.x, `info.tags`
#   in 3.x) and those of servers, channels (3.x), operations, messages and
#   operation and message traits; tags written as `$ref`s are compared by
#   the name of their target. The first tag of a name keeps it; each later
#   one is reported.
#
#   ```yaml
#   tags:
#     - name: users
#     - name: accounts    # good
#     - name: users       # bad: already in the list
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-tags-uniqueness", "spectral:asyncapi-3-tags-uniqueness", "vacuum:asyncapi-3-tags-uniqueness", "redocly:no-duplicated-tag-names"]
#   howToFix: |
#     Remove the repeated tag, merging its description into the first one
#     if they differ.
package specgate.rules["asyncapi-tags-unique"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(l.source, [j]), msg) if {
	some l in asyncapi.tag_lists
	names := [_name(t) | some t in l.tags]
	some j, name in names
	name != ""
	first := min({i | some i, n in names; n == name})
	j > first
	msg := sprintf("tag %q of %s is already in its list (at %d)", [name, l.owner, first])
}

_name(t) := n if {
	n := asyncapi.deref(t).name
	is_string(n)
} else := ""
