# METADATA
# title: The AsyncAPI document states its license
# description: |
#   `info.license` states the terms under which the API description (and
#   the application's interface) may be used. Partners and the public
#   need it before they build on an event stream, and catalogues show it.
#
#   The rule reports on `info` when it has no `license` (or on the
#   document root when there is no `info`); that the license has a URL is
#   `asyncapi-info-license-url`.
#
#   ```yaml
#   info:                         # bad: no license
#     title: Account service
#     version: 1.0.0
#   ---
#   info:
#     title: Account service
#     version: 1.0.0
#     license:                    # good
#       name: Apache 2.0
#       url: https://www.apache.org/licenses/LICENSE-2.0
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-info-license", "vacuum:asyncapi-info-license"]
#   howToFix: |
#     Add `info.license` with the license's `name` and `url`; for an
#     internal API, name the internal terms that apply.
package specgate.rules["asyncapi-info-license"]

import data.specgate.lib.util

violations contains util.violation([], "the document has no info object, so it states no license") if {
	not is_object(object.get(input.document, "info", null))
}

violations contains util.violation(["info"], "info has no license; state the terms of use") if {
	is_object(input.document.info)
	not is_object(object.get(input.document, ["info", "license"], null))
}
