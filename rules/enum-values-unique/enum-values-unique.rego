# METADATA
# title: Enum values are listed once
# description: |
#   No value appears twice in a schema's `enum`. JSON Schema asks for
#   unique enum values; a repeated one adds nothing, and it often hides a
#   typo in the value that was meant (`[read, write, read]` where `admin`
#   was forgotten). Code generators may also emit the same constant twice
#   and fail to compile.
#
#   Values are compared as JSON values: `1` and `1.0` are the same number,
#   objects are equal when their members are. Every schema is checked once,
#   named or inline, and in Swagger 2.0 also the parameters and headers
#   that carry `enum` themselves. The rule reports each repetition, on the
#   repeated entry, naming the first.
#
#   ```yaml
#   role:
#     type: string
#     enum: [read, write, read]   # bad: "read" twice
#   ```
# custom:
#   category: Schemas
#   maturity: Baseline
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:duplicated-entry-in-enum", "vacuum:duplicated-entry-in-enum", "redocly:no-duplicated-enum-values"]
#   howToFix: |
#     Remove the repeated value, or correct it to the value that was meant.
package specgate.rules["enum-values-unique"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["enum", i]), msg) if {
	some s in correctness.having("enum")
	enum := s.node.enum
	is_array(enum)
	some [i, first] in specgate.repeats(enum)
	v := enum[i]
	msg := sprintf("enum value %s of %s repeats entry %d; list each value once", [json.marshal(v), correctness.describe(s), first])
}
