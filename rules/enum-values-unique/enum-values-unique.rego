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
#   that carry `enum` themselves. The rule reports each repeated value once,
#   on its first repetition, naming the entry it repeats and counting the
#   later ones.
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

violations contains util.violation(array.concat(s.source, ["enum", repeats[0]]), msg) if {
	some s in specgate.with_repeats(correctness.having("enum"), "enum")
	enum := s.node.enum
	is_array(enum)
	some first, repeats in specgate.group([[first, i] | some [i, first] in specgate.repeats(enum)])
	msg := sprintf("enum value %s of %s repeats entry %d%s; list each value once", [json.marshal(enum[first]), correctness.describe(s), first, _later(repeats)])
}

_later(repeats) := "" if count(repeats) == 1

else := ", as does 1 later entry" if count(repeats) == 2

else := sprintf(", as do %d later entries", [count(repeats) - 1])
