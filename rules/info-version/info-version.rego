# METADATA
# title: info.version is a non-empty string
# description: |
#   The document states the version of the API in `info.version`, as a
#   string. The field is required, and it is how readers, changelogs and
#   registries tell one release of the API from another. It must be a
#   string: in YAML, `version: 1.0` is the number 1 (and `1.10` the number
#   1.1), so the version tools read is not the one written, and strict
#   parsers reject the document.
#
#   The rule reports on `info.version` when it is not a string or is
#   empty, and on `info` when it is missing.
#
#   ```yaml
#   info:
#     title: Pets
#     version: 1.0        # bad: the number 1
#   info:
#     title: Pets
#     version: "1.0"
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas2, oas3]
#   howToFix: |
#     Write the version as a quoted string (`version: "1.0"`), such as the
#     release number or date of the API (not of the OpenAPI
#     specification).
package specgate.rules["info-version"]

import data.specgate.lib.util

_info := object.get(input.document, "info", {})

violations contains util.violation(["info"], "info has no version; state the version of the API as a string") if {
	is_object(_info)
	not "version" in object.keys(_info)
}

violations contains util.violation(["info", "version"], msg) if {
	v := _info.version
	not is_string(v)
	msg := sprintf("info.version is %s, not a string; quote it (\"%v\") so that tools read the version as written", [_kind(v), v])
}

violations contains util.violation(["info", "version"], "info.version is empty; state the version of the API") if {
	trim_space(_info.version) == ""
}

_kind(v) := "a number" if is_number(v)

else := "a boolean" if is_boolean(v)

else := "null" if is_null(v)

else := "not a string"
