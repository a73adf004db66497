# METADATA
# title: Path segments are kebab-case
# description: |
#   Every literal segment of every path is kebab-case: lower-case letters
#   and digits, words joined by single hyphens (`^[a-z0-9]+(-[a-z0-9]+)*$`).
#   One spelling across an API makes its URLs predictable, and URLs are
#   case-sensitive, so `/userAccounts` and `/useraccounts` are different
#   resources to a client.
#
#   Templates such as `{userId}` are not checked (parameter names are the
#   concern of the parameter naming rules); in a segment that mixes text and
#   templates only the text is checked. The text of a segment is split at
#   `.` and `:` and each part is checked on its own, so a version (`v1`,
#   `v1.2`), a date (`2010-04-01`), `.well-known` and the names registered
#   under it, a file name (`{id}.json`, whose extension `uri-names` reports)
#   and a custom method (`{name}:cancel`) are judged by their words only. A
#   leading `@`, `~` or `$` marks a reserved name (`@me`, `$metadata`) and
#   is ignored, the name after it is checked. A segment with whitespace or
#   percent-encoded characters is left to `uri-names`. Only `paths` keys are checked: not webhooks, callbacks,
#   Swagger's `basePath` or server URLs.
#
#   The rule reports once per offending segment, on the path's key, and
#   suggests a kebab-case spelling when there is one.
#
#   ```yaml
#   paths:
#     /userAccounts/{id}:   # bad
#     /user-accounts/{id}:  # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   peers: ["vacuum:paths-kebab-case", "redocly:paths-kebab-case"]
#   howToFix: |
#     Rename the segment in lower case with hyphens between words, as the
#     message suggests (`userAccounts` and `user_accounts` become
#     `user-accounts`). Renaming a path breaks existing clients: add the new
#     path and deprecate the old one rather than renaming in place.
package specgate.rules["paths-kebab-case"]

import data.specgate.lib.naming
import data.specgate.lib.util

# Each spelling of a segment is judged once, then reported on every path
# that has it.
violations contains util.violation(item.source, msg) if {
	some seg, users in naming.segment_users
	not regex.match(`[\s%]`, seg)
	not _kebab(seg)
	hint := _hint(seg)
	some i in users
	item := naming.path_items[i]
	msg := sprintf("path segment %q of %s is not kebab-case%s", [seg, item.path, hint])
}

_kebab(seg) if {
	every word in _words(seg) {
		naming.is_kebab(word)
	}
}

# _words are the parts of a segment that must be kebab-case: its text
# outside templates, split at "." and ":", without the sigil of a reserved
# name. A template becomes "0" so that the hyphens around it still join
# words.
_words(seg) := [w |
	some part in regex.split(`[.:]`, regex.replace(seg, `\{[^{}]*\}`, "0"))
	w := regex.replace(part, `^[@~$]`, "")
	w != ""
]

_hint(seg) := sprintf(" (use %q)", [fixed]) if {
	fixed := concat("", [_fix(t) | some t in regex.find_n(`\{[^{}]*\}|[.:]|[^{}.:]+`, seg, -1)])
	every w in _words(fixed) {
		naming.is_kebab(w)
	}
} else := ""

# _fix respells one token of a segment: templates and separators stay, text
# becomes kebab-case, keeping the sigil of a reserved name and a hyphen
# where it touched a template.
_fix(t) := t if {
	regex.match(`^(\{[^{}]*\}|[.:])$`, t)
} else := concat("", [substring(t, 0, 1), naming.kebab(t)]) if {
	regex.match(`^[@~$][A-Za-z0-9]`, t)
} else := "-" if {
	count(naming.words(t)) == 0
} else := concat("", [_dash(regex.match(`^[^A-Za-z0-9]`, t)), naming.kebab(t), _dash(regex.match(`[^A-Za-z0-9]$`, t))])

_dash(true) := "-"

_dash(false) := ""
