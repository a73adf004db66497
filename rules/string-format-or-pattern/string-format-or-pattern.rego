# METADATA
# title: Request strings are restricted by format, pattern or enum
# description: |
#   Every string the API receives says what it may contain: a `format`
#   (`email`, `uri`, `date-time`, …), a `pattern`, or an `enum` or `const`.
#   A string that accepts any characters is where injection starts: SQL,
#   command, header, log and script injection all ride on input that no
#   one restricted (OWASP API8:2023 Security Misconfiguration, API10:2023
#   Unsafe Consumption of APIs). A pattern also documents the shape for
#   clients and lets the API reject nonsense early.
#
#   Only the request side is checked, as the risk is about input: schemas
#   that the parameters and request bodies of operations under `paths`
#   reach, through properties, items, compositions and `$ref`s, and in
#   Swagger 2.0 the non-body parameters themselves. Response-only and
#   unused schemas, `readOnly` properties, and schemas under `not`/`if`
#   are not. Only schemas that declare `type: string` are judged. This
#   rule is strict by nature: free text (a comment, a description) has no
#   pattern; silence it there with `x-lint-ignore`. The rule reports on
#   `type`.
#
#   ```yaml
#   country:
#     type: string                # bad
#   country:
#     type: string
#     pattern: '^[A-Z]{2}$'      # good
#   ```
# custom:
#   category: Schemas
#   maturity: Platinum
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-string-restricted"]
#   howToFix: |
#     Add the `format` the value has, a `pattern` anchored with `^` and
#     `$`, or an `enum` of the accepted values.
package specgate.rules["string-format-or-pattern"]

import data.specgate.lib.security

# violations is a list, built by specgate.violations_of: a large API has
# thousands of such strings, and each finding built in Rego (its path, its
# message, a set's hashing and ordering) cost more than finding it (the
# linter drops repeats). The strings without a format (none or "") and
# then without a pattern are kept by specgate.partition_at, in Go: a test
# of each in Rego cost more than the finding.
violations := specgate.violations_of(_unshaped, ["type"], "{label} is a string without format, pattern or enum")

_unshaped := specgate.partition_at(
	specgate.partition_at(specgate.lacking(object.get(security.received_of, "string", []), ["enum", "const"]), ["node", "format"], "", {""})[0],
	["node", "pattern"], "", {""},
)[0]
