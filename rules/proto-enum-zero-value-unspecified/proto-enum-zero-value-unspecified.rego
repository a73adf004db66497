# METADATA
# title: The zero value of an enum is _UNSPECIFIED
# description: |
#   The value numbered 0 of every enum is named `<ENUM>_UNSPECIFIED`
#   (`COLOR_UNSPECIFIED`), as the Protocol Buffers style guide and `buf lint`
#   (ENUM_ZERO_VALUE_SUFFIX) ask. Zero is what a field holds when nobody set
#   it (and, in proto3, what an old peer reads for a value it does not
#   know): it must not mean a real choice, or "not set" is silently read as
#   that choice. An enum without a zero value is reported too (proto3
#   requires one; proto2 takes the first value as the default).
#
#   ```proto
#   enum Color {
#     COLOR_RED = 0;          // bad: an unset color reads as red
#   }
#   enum Color {
#     COLOR_UNSPECIFIED = 0;  // good
#     COLOR_RED = 1;
#   }
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [proto]
#   howToFix: |
#     Add a value `<ENUM>_UNSPECIFIED = 0` and number the real values from 1.
#     Renumbering values breaks the wire format: do it before the first
#     release, or add the zero value under a new enum.
package specgate.rules["proto-enum-zero-value-unspecified"]

import data.specgate.lib.util

violations contains util.violation(v.source, sprintf("the zero value of enum %s is %s; name it %s (an unset field reads as zero)", [v.enumFullName, v.name, _want(v.enum)])) if {
	some v in input.proto.enumValues
	v.number == 0
	not endswith(v.name, "_UNSPECIFIED")
}

violations contains util.violation(e.source, sprintf("enum %s has no zero value; add %s = 0 (an unset field reads as zero)", [e.fullName, _want(e.name)])) if {
	some e in input.proto.enums
	not _has_zero(e.fullName)
}

_has_zero(full) if {
	some v in input.proto.enumValues
	v.enumFullName == full
	v.number == 0
}

_want(enum) := sprintf("%s_UNSPECIFIED", [upper(specgate.respell(enum, "snake"))])
