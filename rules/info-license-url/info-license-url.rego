# METADATA
# title: The license says where to read it
# description: |
#   When `info.license` is given, it has a `url` pointing at the license
#   text, or, in OpenAPI 3.1 and later, an SPDX `identifier` instead. A
#   license name alone ("Proprietary", "Custom terms") does not tell
#   consumers what they may do; the URL or the SPDX identifier does, and
#   tools can check it.
#
#   Blank values count as missing. A document without a license is left to
#   `info-license`. The rule reports on `info.license`.
#
#   ```yaml
#   info:
#     license:
#       name: Apache 2.0                                  # bad: no url
#     license:
#       name: Apache 2.0
#       url: https://www.apache.org/licenses/LICENSE-2.0  # good
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:license-url", "spectral:license-url", "redocly:info-license-strict"]
#   howToFix: |
#     Add `url` with the address of the license text (in OpenAPI 3.1 and
#     later, an SPDX `identifier` such as `MIT` or `Apache-2.0` will do).
package specgate.rules["info-license-url"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(["info", "license"], msg) if {
	license := input.document.info.license
	is_object(license)
	style.blank(object.get(license, "url", ""))
	not _identified(license)
	msg := sprintf("info.license has no url%s; say where to read the license", [_or_identifier])
}

_identified(license) if {
	_spdx
	not style.blank(object.get(license, "identifier", ""))
}

# _spdx holds for OpenAPI 3.1 and later, where a license may have an SPDX
# identifier.
_spdx if {
	some f in input.formats
	f in {"oas3.1", "oas3.2"}
}

_or_identifier := " or SPDX identifier" if _spdx

else := ""
