# METADATA
# title: The license has a URL
# description: |
#   `info.license` links to the license text with a `url`. A name such as
#   "Proprietary" or "Internal use" does not say what the terms are, and
#   even well-known names have versions; the URL is what a reader (or a
#   legal review) can actually read.
#
#   Only a license that exists is checked (`asyncapi-info-license` asks for
#   one); a blank URL counts as missing. The rule reports on
#   `info.license`.
#
#   ```yaml
#   info:
#     license:                    # bad: which terms?
#       name: Proprietary
#   ---
#   info:
#     license:                    # good
#       name: Apache 2.0
#       url: https://www.apache.org/licenses/LICENSE-2.0
#   ```
# custom:
#   category: Documentation
#   maturity: Gold
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-info-license-url", "vacuum:asyncapi-info-license-url", "redocly:info-license-strict"]
#   howToFix: |
#     Add the `url` of the license text to `info.license`.
package specgate.rules["asyncapi-info-license-url"]

import data.specgate.lib.util

violations contains util.violation(["info", "license"], sprintf("the license %q has no url; link to its text", [object.get(license, "name", "")])) if {
	license := input.document.info.license
	is_object(license)
	trim_space(object.get(license, "url", "")) == ""
}
