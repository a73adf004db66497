# METADATA
# title: The API states its license
# description: |
#   `info.license` states the terms under which the API may be used, with at
#   least its `name`. Consumers, and their legal teams, need to know whether
#   and how they may build on the API; public catalogues show the license.
#
#   A blank name counts as missing. The rule reports on `info` when there is
#   no license, on `info.license` when it has no name, and on the document
#   root when there is no `info`.
#
#   ```yaml
#   info:
#     title: Pets
#     license:            # good
#       name: Apache 2.0
#       identifier: Apache-2.0
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:info-license", "spectral:info-license", "redocly:info-license"]
#   howToFix: |
#     Add `info.license` with the license's `name` and its `url` (or, from
#     OpenAPI 3.1, its SPDX `identifier`). For a private API, name the terms
#     of use that apply, such as "Proprietary".
package specgate.rules["info-license"]

import data.specgate.lib.util

violations contains util.violation([], "the document has no info object, so the API states no license") if {
	not "info" in object.keys(input.document)
}

violations contains util.violation(["info"], "info has no license; state the terms under which the API may be used") if {
	"info" in object.keys(input.document)
	not _has_license
}

violations contains util.violation(["info", "license"], "info.license has no name") if {
	_has_license
	not _named
}

_has_license if "license" in object.keys(input.document.info)

_named if trim_space(input.document.info.license.name) != ""
