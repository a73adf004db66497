# METADATA
# title: The specification version is written in full
# description: |
#   The `openapi` field names the version of the OpenAPI Specification the
#   document follows in full, `major.minor.patch` (`3.1.0`, `3.0.3`), as a
#   string. The field tells tools which rules and which schema dialect to
#   apply: `3.1` or `3` is not a version of the specification, and an
#   unquoted `3.0` in YAML is a number. specgate reads such documents by
#   their major and minor version, but other tools reject them or guess.
#   (Swagger 2.0 documents must say `swagger: "2.0"`; specgate does not
#   read other values.)
#
#   The rule reports on `openapi`.
#
#   ```yaml
#   openapi: 3.1        # bad
#   openapi: 3.1.0
#   ```
# custom:
#   category: Structure
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3]
#   howToFix: |
#     Write the full version of the specification the document follows,
#     as a string: `openapi: 3.1.0`, `openapi: "3.0.3"`.
package specgate.rules["openapi-version"]

import data.specgate.lib.util

violations contains util.violation(["openapi"], msg) if {
	v := input.document.openapi
	not _full(v)
	msg := sprintf("openapi is %s; write the full version of the specification as a string, such as \"%s\"", [_shown(v), _suggestion])
}

_full(v) if {
	is_string(v)
	regex.match(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`, v)
}

_shown(v) := sprintf("%q", [v]) if is_string(v)

else := sprintf("the number %v", [v])

_suggestion := sprintf("%s.0", [input.version]) if regex.match(`^[0-9]+\.[0-9]+$`, input.version)

else := "3.1.0"
