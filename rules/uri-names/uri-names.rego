# METADATA
# title: Paths are clean URIs
# description: |
#   Every path is a clean URI template: no trailing slash (except the root
#   `/`), no empty segment (`//`), no query string (`?…`) or fragment
#   (`#…`), no whitespace, no percent-encoded characters (`%20`) and no file
#   extension on a segment (`.json`, `.xml`, `.php`, `.{format}` …). Such
#   paths are hard to match (`/users` and `/users/` are different URLs to
#   most servers and clients), hide parameters from the description, or tie
#   the API to a file format or a server technology instead of using content
#   negotiation.
#
#   This is the structural hygiene of paths; their casing is left to
#   `paths-kebab-case`. File extensions are recognised from a list of data
#   formats and server-side technologies (json, xml, yaml, yml, csv, tsv,
#   txt, html, htm, php, asp, aspx, jsp, cgi, pl, py, rb, do, action) and a
#   template written as an extension (`.{format}`); other dots, as in
#   `v1.2` or the range `{base}...{head}`, are fine. Names registered under `/.well-known/` (RFC 8615,
#   such as `security.txt`) are exempt from the extension check. Templates
#   are not checked for whitespace or encoding. Only `paths` keys are
#   checked.
#
#   The rule reports once per problem on the path's key.
#
#   ```yaml
#   paths:
#     /users/:                # bad: trailing slash
#     /users.json:            # bad: file extension
#     /search?q={q}:          # bad: query string
#     /users:                 # good
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [oas2, oas3]
#   peers: ["vacuum:path-keys-no-trailing-slash", "vacuum:path-not-include-query", "spectral:path-keys-no-trailing-slash", "spectral:path-not-include-query", "redocly:no-path-trailing-slash", "redocly:path-not-include-query"]
#   howToFix: |
#     Remove the trailing slash or the empty segment; declare query
#     parameters as `in: query` parameters instead of writing them into the
#     path; write the characters a segment means instead of encoding them
#     and join words with hyphens instead of spaces; drop file extensions and
#     let clients choose the representation with the `Accept` header (declare
#     each media type under the response's `content` or `produces`).
package specgate.rules["uri-names"]

import data.specgate.lib.naming
import data.specgate.lib.util

# _extensions match a known extension, or a template written as one
# (".{format}", but not the "..." of a range such as "{base}...{head}").
_extensions := `(?i)(\.(json|xml|yaml|yml|csv|tsv|txt|html|htm|php|asp|aspx|jsp|cgi|pl|py|rb|do|action)|[^.]\.\{[^{}]*\})$`

violations contains util.violation(item.source, sprintf("path %s ends with a slash; remove the trailing \"/\"", [item.path])) if {
	some item in _suspect
	path := _without_query(item.path)
	path != "/"
	endswith(path, "/")
}

violations contains util.violation(item.source, sprintf("path %s has an empty segment (\"//\")", [item.path])) if {
	some item in _suspect
	contains(_without_query(item.path), "//")
}

violations contains util.violation(item.source, msg) if {
	some item in _suspect
	contains(_text(item.path), "?")
	some q in regex.find_n(`\?.*$`, item.path, 1)
	msg := sprintf("path %s contains a query string (%q); declare query parameters instead", [item.path, q])
}

violations contains util.violation(item.source, msg) if {
	some item in _suspect
	not contains(_text(item.path), "?")
	contains(_text(item.path), "#")
	some f in regex.find_n(`#.*$`, item.path, 1)
	msg := sprintf("path %s contains a fragment (%q); a fragment is never sent to the server", [item.path, f])
}

# _suspect are the path items the rules above may report, found in one
# pass: a path that ends with a slash (before any query or fragment) ends
# with one or has one before a "?" or "#", an empty segment is "//", and
# a query or fragment needs its "?" or "#".
_suspect := [item | some item in naming.path_items; regex.match(`//|/$|[?#]`, item.path)]

# The rules about segments judge each spelling once, then report it on
# every path that has it.
violations contains util.violation(item.source, msg) if {
	some seg, users in naming.segment_users
	regex.match(`\s`, seg) # a quick test first
	regex.match(`\s`, _text(seg))
	some i in users
	item := naming.path_items[i]
	msg := sprintf("path segment %q of %s contains whitespace", [seg, item.path])
}

violations contains util.violation(item.source, msg) if {
	some seg, users in naming.segment_users
	contains(seg, "%")
	encoded := regex.find_n(`%[0-9A-Fa-f]{2}`, _text(seg), -1)
	count(encoded) > 0
	some i in users
	item := naming.path_items[i]
	msg := sprintf("path segment %q of %s contains percent-encoded characters (%s); write the characters themselves", [seg, item.path, concat(", ", encoded)])
}

violations contains util.violation(item.source, msg) if {
	some seg, users in naming.segment_users
	contains(seg, ".")
	some match in regex.find_n(_extensions, seg, 1)
	ext := regex.replace(match, `^[^.]`, "")
	some u in users
	item := naming.path_items[u]
	some i, s in item.segments
	s == seg
	not _well_known(item.segments, i)
	msg := sprintf("path segment %q of %s has a file extension (%q); let clients choose the format with the Accept header", [seg, item.path, ext])
}

# _text is a path or segment with its {templates} blanked out.
_text(s) := regex.replace(s, `\{[^{}]*\}`, "{}")

_without_query(path) := regex.replace(path, `[?#].*$`, "")

_well_known(segs, i) if {
	i > 0
	segs[i - 1] == ".well-known"
}
