# METADATA
# title: The API has a title
# description: |
#   `info.title` names the API with text that is not blank. The title is
#   what documentation portals, API catalogues, generated clients and
#   reports call the API; the specifications require it.
#
#   The rule reports on `info.title` when it is blank or not a string, on
#   `info` when it has no title, and on the document root when there is no
#   `info`.
#
#   ```yaml
#   info:
#     title: ""            # bad
#     title: Pet Store API # good
#     version: 1.0.0
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   howToFix: |
#     Set `info.title` to the name people use for the API ("Pet Store API"),
#     without a version number (that is `info.version`).
package specgate.rules["info-title"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation([], "the document has no info object, so the API has no title") if {
	not "info" in object.keys(input.document)
}

violations contains util.violation(["info"], "info has no title; name the API") if {
	is_object(input.document.info)
	not "title" in object.keys(input.document.info)
}

violations contains util.violation(["info", "title"], "info.title is blank; name the API") if {
	"title" in object.keys(input.document.info)
	style.blank(input.document.info.title)
}
