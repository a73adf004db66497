# METADATA
# title: A license has a url or an identifier, not both
# description: |
#   In OpenAPI 3.1 and later, `info.license` has either a `url` or an SPDX
#   `identifier`, not both: the specification makes them mutually
#   exclusive, because the two could name different licenses and nothing
#   would say which one applies.
#
#   The rule reports on the license's `identifier`.
#
#   ```yaml
#   info:
#     license:
#       name: MIT
#       identifier: MIT                          # bad: and a url
#       url: https://opensource.org/licenses/MIT
#     license:
#       name: MIT
#       identifier: MIT                          # good
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: error
#   family: documentation
#   formats: [oas3.1, oas3.2]
#   peers: ["vacuum:info-license-spdx"]
#   howToFix: |
#     Keep the SPDX `identifier` when the license is a standard one, and
#     remove the `url`; keep only the `url` for any other license.
package specgate.rules["info-license-identifier-exclusive"]

import data.specgate.lib.util

violations contains util.violation(["info", "license", "identifier"], msg) if {
	license := input.document.info.license
	"identifier" in object.keys(license)
	"url" in object.keys(license)
	msg := sprintf("info.license has both an identifier (%v) and a url (%v); OpenAPI allows only one of them", [license.identifier, license.url])
}
