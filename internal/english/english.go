// Package english owns the one rule specgate's messages follow for counted
// nouns: a count of one takes the singular, every other count (zero
// included) the plural. The caller names both forms, so that irregular
// plurals ("entry", "entries") and verbs that agree with a count ("does",
// "do") need no rule of their own.
package english

import "strconv"

// Noun is one when n is 1 and many otherwise: Noun(3, "operation",
// "operations") is "operations".
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n followed by the noun that agrees with it: Count(1, "rule",
// "rules") is "1 rule", Count(0, "rule", "rules") "0 rules".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Noun(n, one, many)
}
