# METADATA
# title: Request strings have a maximum length
# description: |
#   Every string the API receives has a `maxLength`, or takes its values
#   from an `enum` or `const`. Without a limit a client may send megabytes
#   in a name field: the API spends memory, CPU and storage on it, and
#   downstream systems (databases, search indexes, logs) fail in ways an
#   attacker can use (OWASP API4:2023 Unrestricted Resource Consumption).
#
#   Only the request side is checked, as the risk is about input: schemas
#   that the parameters and request bodies of operations under `paths`
#   reach, through properties, items, compositions and `$ref`s, and in
#   Swagger 2.0 the non-body parameters themselves. Response-only and
#   unused schemas, `readOnly` properties, and schemas under `not`/`if`
#   are not. A string whose `format` fixes its length (`date`, `date-time`,
#   `time`, `uuid`, `ipv4`, `ipv6`) is bounded already; a file upload
#   (`format: binary`) is reported too, as its `maxLength` bounds the
#   upload's size. Only schemas that
#   declare `type: string` (OpenAPI 3.1: a type array with "string") are
#   judged. The rule reports on `type`.
#
#   ```yaml
#   name:
#     type: string                  # bad
#   name:
#     type: string
#     maxLength: 100                # good
#   ```
# custom:
#   category: Schemas
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-string-limit"]
#   howToFix: |
#     Add a `maxLength` that fits the field (a name: 100, a description:
#     a few thousand), or an `enum` when the values are known.
package specgate.rules["string-max-length"]

import data.specgate.lib.security

# violations is a list, built by specgate.violations_of: a large API has
# thousands of such strings, and each finding built in Rego (its path, its
# message, a set's hashing and ordering) cost more than finding it (the
# linter drops repeats). The strings are found in Go too
# (specgate.partition_at keeps those whose format is not a bounded one):
# a test of each in Rego cost more than the finding.
violations := specgate.violations_of(
	specgate.partition_at(
		specgate.lacking(object.get(security.received_of, "string", []), ["maxLength", "enum", "const"]),
		["node", "format"], null, _bounded_formats,
	)[1],
	["type"], "{label} is a string without maxLength",
)

# _bounded_formats are the formats whose values have a bounded length.
_bounded_formats := {"date", "date-time", "time", "uuid", "ipv4", "ipv6"}
