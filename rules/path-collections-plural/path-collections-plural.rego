# METADATA
# title: Collections in paths are plural
# description: |
#   A path segment that names a collection, followed by the identifier of
#   one of its members, is a plural noun: `/users/{userId}`, not
#   `/user/{userId}`. The collection is then spelled the same in
#   `/users` and `/users/{userId}`, and clients can guess one from the
#   other.
#
#   A segment counts as a collection when the template after it identifies
#   its members: `{id}`, or a name made of the segment's last word, alone
#   or followed by `id` or `Id` (`/user/{user}`, `/user/{user_id}`,
#   `/deployment-record/{recordId}`). Templates named otherwise
#   (`/compare/{basehead}`, `/tarball/{ref}`) may follow a word that is
#   not a collection and are not judged, nor are versions (`v1`). The last
#   word of the segment is plural when it ends in `s` or is a plural or
#   uncountable noun that does not (`people`, `children`, `men`, `women`,
#   `data`, `media`, `criteria`, `metadata`, `history`, `info`,
#   `information`, `feedback`, `staff`, `content`, `software`, `equipment`,
#   `inventory`). Only `paths` keys are checked; the rule reports once per
#   segment, on the path's key.
#
#   ```yaml
#   paths:
#     /user/{userId}:     # bad
#     /users/{userId}:    # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   peers: ["redocly:path-segment-plural"]
#   howToFix: |
#     Rename the segment with the plural noun (`/user/{userId}` becomes
#     `/users/{userId}`). Renaming a path breaks existing clients: add the
#     new path and deprecate the old one.
package specgate.rules["path-collections-plural"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

# Each spelling of a segment is judged once; a word that is not plural is
# then looked for, followed by a template, in the paths that have it.
violations contains util.violation(item.source, msg) if {
	some seg, users in naming.segment_users
	regex.match(`^[A-Za-z][A-Za-z0-9_-]*$`, seg)
	not regex.match(`^[vV][0-9]`, seg)
	word := lower(_last_word(seg))
	not _plural(word)
	some u in users
	item := naming.path_items[u]
	some i, s in item.segments
	s == seg
	next := item.segments[i + 1]
	style.is_template(next)
	_identifies(trim(next, "{}"), seg, word)
	msg := sprintf("path segment %q of %s names the collection that %s belongs to, but is not plural", [seg, item.path, next])
}

_last_word(seg) := ws[count(ws) - 1] if {
	ws := [w | some w in naming.words(seg); regex.match(`^[A-Za-z]{2,}$`, w)]
	count(ws) > 0
}

# _identifies holds when a template names a member of the collection the
# segment (or its last word) names.
_identifies(template, seg, word) if {
	t := _squash(template)
	t in {"id", word, concat("", [word, "id"]), _squash(seg), concat("", [_squash(seg), "id"])}
}

_squash(s) := lower(regex.replace(s, `[^A-Za-z0-9]`, ""))

_plural(word) if endswith(word, "s")

_plural(word) if word in {
	"people", "children", "men", "women", "feet", "teeth", "mice", "geese",
	"data", "media", "criteria", "phenomena", "metadata", "alumni", "cacti", "fungi", "nuclei", "radii", "stimuli",
	"history", "info", "information", "feedback", "staff", "content", "software", "hardware", "firmware",
	"equipment", "inventory", "personnel",
}
