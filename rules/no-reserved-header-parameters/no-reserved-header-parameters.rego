# METADATA
# title: Accept, Content-Type and Authorization are not header parameters
# description: |
#   No `in: header` parameter is named `Accept`, `Content-Type` or
#   `Authorization` (compared without case). OpenAPI 3 says such parameter
#   definitions SHALL be ignored: the media types of the request body and
#   of the responses set `Content-Type` and `Accept`, and security schemes
#   set `Authorization`. In Swagger 2.0 they are not ignored, but they
#   repeat what `consumes`, `produces` and `securityDefinitions` describe
#   and drift from them; tools that generate clients send those headers
#   themselves.
#
#   Every header parameter is checked once, inline or reusable; the rule
#   reports on its `name`.
#
#   ```yaml
#   parameters:
#     - name: Authorization   # bad
#       in: header
#       schema: {type: string}
#   components:
#     securitySchemes:        # good
#       bearer: {type: http, scheme: bearer}
#   ```
# custom:
#   category: Parameters
#   maturity: Bronze
#   severity: warn
#   family: headers
#   formats: [oas2, oas3]
#   howToFix: |
#     Remove the parameter. Declare the request's media types under
#     `requestBody.content` (Swagger 2.0: `consumes`), the responses' media
#     types under each response's `content` (`produces`), and credentials
#     as a security scheme with a security requirement.
package specgate.rules["no-reserved-header-parameters"]

import data.specgate.lib.style
import data.specgate.lib.util

# The few parameters with a reserved name are found in one call
# (specgate.matching, each distinct name matched once) rather than by
# iterating thousands of parameters in Rego; only those are then tested
# for `in: header`. `(?i)` folds case as lower() does for these ASCII
# names (no k or s, whose folds reach beyond ASCII).
violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in specgate.matching(input.parameters, ["name"], `(?i)^(?:accept|content-type|authorization)$`)
	p["in"] == "header"
	advice := _advice[_version][lower(p.name)]
	msg := sprintf("header parameter %q %s", [p.name, advice])
}

_version := "oas2" if util.is_oas2

else := "oas3"

_advice := {
	"oas3": {
		"accept": "is ignored in OpenAPI 3; the media types under each response's content say what the client accepts",
		"content-type": "is ignored in OpenAPI 3; the media types under requestBody.content set the request's Content-Type",
		"authorization": "is ignored in OpenAPI 3; declare a security scheme and a security requirement instead",
	},
	"oas2": {
		"accept": "repeats what produces declares; list the response media types in produces instead",
		"content-type": "repeats what consumes declares; list the request media types in consumes instead",
		"authorization": "bypasses securityDefinitions; declare a security scheme and a security requirement instead",
	},
}
