# METADATA
# title: Path parameters are required
# description: |
#   Every `in: path` parameter says `required: true`. A path parameter is
#   part of the URL, so it cannot be left out; the OpenAPI specification
#   requires the field and its value `true`, and tools that read a missing
#   or `false` value generate optional arguments that produce broken URLs.
#
#   Every path parameter is checked once, inline or reusable. The rule
#   reports on `required` when it is written with another value, and on the
#   parameter when the field is missing.
#
#   ```yaml
#   parameters:
#     - name: user_id
#       in: path          # bad: required is missing
#     - name: post_id
#       in: path
#       required: false   # bad
#   ```
# custom:
#   category: Parameters
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:path-params", "spectral:path-params"]
#   howToFix: |
#     Add `required: true` to the parameter. If the value is really
#     optional, it is not a path parameter: make it a query parameter or
#     declare a second path without the segment.
package specgate.rules["path-parameters-required"]

import data.specgate.lib.util

# The path parameters are split from the others in one call
# (specgate.partition_at), not tested one by one in Rego.
violations contains util.violation(_at(p), msg) if {
	some p in specgate.partition_at(input.parameters, ["in"], "", {"path"})[0]
	not p.required
	msg := sprintf("path parameter %q is not marked required: true; path parameters are always required", [p.name])
}

_at(p) := array.concat(p.source, ["required"]) if "required" in object.keys(p.node)

else := p.source
