# METADATA
# title: Descriptions say more than summaries
# description: |
#   A `description` does not repeat the `summary` beside it, on an
#   operation, a path item or (OpenAPI 3.1 and later) `info`. The summary
#   is the title documentation tools show; the description is the text
#   under it. A description that only repeats the title shows the same
#   words twice and leaves out what readers came for: behaviour, side
#   effects, errors, limits.
#
#   The two are compared without case, spacing and a final period ("List
#   pets." repeats "list pets"). Operations under `paths`, `webhooks` and
#   `callbacks` are checked. The rule reports on the `description`.
#
#   ```yaml
#   get:
#     summary: List pets
#     description: List pets.        # bad
#     description: |                 # good
#       Returns the pets of the caller's store, newest first, 20 per page.
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:description-duplication"]
#   howToFix: |
#     Write in the description what the summary does not say: what the
#     operation does in detail, its side effects, its errors and limits.
package specgate.rules["description-duplicates-summary"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

# The views give every operation a summary and a description, "" when it
# has none. Only those with both texts not blank are read (found in Go by
# specgate.matching, a non-space character in each: most of a large API's
# operations have no description), and the lengths are compared before
# anything else: most descriptions are far longer than their summary.
violations contains util.violation(array.concat(op.source, ["description"]), msg) if {
	some op in specgate.matching(specgate.matching(style.operations, ["description"], `\S`), ["summary"], `\S`)
	count(op.description) <= (2 * count(op.summary)) + 16
	_repeats(op.summary, op.description)
	msg := sprintf("the description of %s only repeats its summary (%q)", [naming.operation(op), op.summary])
}

violations contains util.violation(array.concat(item.source, ["description"]), msg) if {
	some item in specgate.matching(specgate.matching(input.pathItems, ["node", "description"], `\S`), ["node", "summary"], `\S`)
	_repeats(object.get(item.node, "summary", ""), object.get(item.node, "description", ""))
	msg := sprintf("the description of path %s only repeats its summary (%q)", [item.path, item.node.summary])
}

violations contains util.violation(["info", "description"], msg) if {
	info := input.document.info
	_repeats(object.get(info, "summary", ""), object.get(info, "description", ""))
	msg := sprintf("info.description only repeats info.summary (%q)", [info.summary])
}

_repeats(summary, description) if {
	not style.blank(summary)
	not style.blank(description)
	count(description) <= (2 * count(summary)) + 16
	_plain(summary) == _plain(description)
}

# _plain is a text in lower case, with runs of whitespace made one space
# and without a final period. (The length test above first drops the
# descriptions that are far longer than their summary.)
_plain(s) := trim_right(lower(regex.replace(trim_space(s), `\s+`, " ")), ".")
