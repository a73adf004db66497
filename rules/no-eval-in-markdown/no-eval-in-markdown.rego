# METADATA
# title: Descriptions do not call eval
# description: |
#   No title, summary or description contains `eval(`. Descriptions are
#   Markdown that documentation portals render as HTML, some of them with
#   inline HTML and scripts allowed; JavaScript's `eval(` in that text is
#   the mark of an injected script (or of an example that will be mistaken
#   for one by security scanners), and has no place in documentation.
#
#   Every title, summary and description of every file of the document is
#   checked (not examples, defaults and extensions, which hold data). The
#   rule reports on the text.
#
#   ```yaml
#   description: |
#     Lists pets. <img src=x onerror="eval(atob('...'))">   # bad
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:no-eval-in-markdown", "vacuum:no-eval-in-markdown"]
#   howToFix: |
#     Remove the script from the text. To document code that uses eval,
#     put it in a fenced code block in an external document, or describe
#     it in words.
package specgate.rules["no-eval-in-markdown"]

import data.specgate.lib.correctness

violations contains correctness.at(path, file, msg) if {
	some [path, _, file] in correctness.texts_matching(`eval\(`)
	msg := sprintf("the %s contains eval(, the mark of a script; descriptions are rendered as HTML", [path[count(path) - 1]])
}
