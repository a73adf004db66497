# METADATA
# title: Enum values start with the enum name
# description: |
#   Every value of an enum starts with the enum's name in UPPER_SNAKE_CASE
#   and an underscore (`COLOR_RED` in `enum Color`), as the Protocol Buffers
#   style guide and `buf lint` (ENUM_VALUE_PREFIX) ask. Enum values follow
#   C++ scoping rules: they are siblings of the enum, not members of it, so
#   two enums of one package cannot both have a value `UNKNOWN` unless each
#   is prefixed. The name is spelled as buf spells it, where a capital
#   starts a word when a lower-case letter precedes or follows it and a
#   digit never does (`IPv4Type` gives `I_PV4_TYPE_`, `HTTP2Version`
#   `HTTP2_VERSION_`, `Type3D` `TYPE3D_`), or with its acronyms and digits
#   kept in their words (`IPV4_TYPE_`, `TYPE3_D_`): a value prefixed either
#   way passes. The message suggests the words' spelling when the enum's
#   other values use it and none uses buf's, else buf's.
#
#   Google's AIP-126 asks the opposite for an enum nested in the one message
#   that uses it (`State.ACTIVE`, not `State.STATE_ACTIVE`), and googleapis
#   follows it: an API that follows AIPs turns this rule off.
#
#   ```proto
#   enum Color {
#     COLOR_UNSPECIFIED = 0;
#     RED = 1;         // bad
#     COLOR_BLUE = 2;  // good
#   }
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [proto]
#   howToFix: |
#     Rename the value with the enum's prefix, as the message suggests. JSON
#     carries enum values by name: renaming one breaks JSON clients, so do it
#     before the first release.
package specgate.rules["proto-enum-value-prefix"]

import data.specgate.lib.util

violations contains util.violation(v.source, sprintf("value %s of enum %s does not start with %s (use %q)", [v.name, v.enumFullName, prefix, sprintf("%s%s", [prefix, v.name])])) if {
	some v in input.proto.enumValues
	not startswith(v.name, _prefix(v.enum))
	not startswith(v.name, _word_prefix(v.enum))
	prefix := _suggested(v)
}

# _suggested is the prefix the enum's other values use when they spell it
# by its words (googleapis' IPv6AccessType has IPV6_ACCESS_TYPE_UNSPECIFIED),
# else buf's, which passes both linters.
_suggested(v) := _word_prefix(v.enum) if {
	v.enumFullName in _word_spelled
	not v.enumFullName in _buf_spelled
} else := _prefix(v.enum)

# _word_spelled are the enums of which a value is prefixed by the words of
# the enum's name but not as buf spells it, _buf_spelled those of which a
# value is prefixed as buf spells it only. (Sets built once: looking at
# every value of a file for each finding is quadratic on compute.proto.)
_word_spelled contains v.enumFullName if {
	some v in input.proto.enumValues
	startswith(v.name, _word_prefix(v.enum))
	not startswith(v.name, _prefix(v.enum))
}

_buf_spelled contains v.enumFullName if {
	some v in input.proto.enumValues
	startswith(v.name, _prefix(v.enum))
	not startswith(v.name, _word_prefix(v.enum))
}

# _prefix is the enum's name in UPPER_SNAKE_CASE as buf spells it, and an
# underscore. A word starts at a capital that follows a lower-case letter, or
# that a lower-case letter follows ("IPv4Type" is I_PV4_TYPE, "HTTP2Version"
# HTTP2_VERSION); a digit never starts one ("Type3D" is TYPE3D, "Sha256Hash"
# SHA256_HASH).
_prefix(enum) := sprintf("%s_", [upper(concat("", [_piece(cs, i) | some i, _ in cs]))]) if {
	cs := split(trim(enum, "_"), "")
}

# _word_prefix is the name's words in UPPER_SNAKE_CASE, as specgate.words
# splits them ("IPv6Access" is IPV6_ACCESS): googleapis'
# PRIVATE_IPV6_GOOGLE_ACCESS_UNSPECIFIED of enum PrivateIPv6GoogleAccess is
# prefixed with its enum's name, though buf asks for PRIVATE_I_PV6_.
_word_prefix(enum) := sprintf("%s_", [upper(specgate.respell(enum, "snake"))])

_piece(cs, 0) := cs[0]

_piece(cs, i) := "" if {
	i > 0
	cs[i] == "_"
	cs[i - 1] == "_"
}

_piece(cs, i) := "_" if {
	i > 0
	cs[i] == "_"
	cs[i - 1] != "_"
}

_piece(cs, i) := sprintf("_%s", [cs[i]]) if {
	i > 0
	_word_start(cs, i)
}

_piece(cs, i) := cs[i] if {
	i > 0
	cs[i] != "_"
	not _word_start(cs, i)
}

_word_start(cs, i) if {
	_capital(cs[i])
	cs[i - 1] != "_"
	_starts_word(cs, i)
}

# A capital starts a word when a lower-case letter follows it or precedes it.
_starts_word(cs, i) if regex.match(`^[a-z]$`, cs[i + 1])

_starts_word(cs, i) if regex.match(`^[a-z]$`, cs[i - 1])

_capital(c) if regex.match(`^[A-Z]$`, c)
