// Package english owns the rules specgate's messages follow for counted
// nouns and for lists. A count of one takes the singular, every other
// count (zero included) the plural; the caller names both forms, so that
// irregular plurals ("entry", "entries") and verbs that agree with a count
// ("does", "do") need no rule of their own. A list is joined with commas
// and a conjunction before its last item, with no serial comma.
package english

import (
	"strconv"
	"strings"
)

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

// List joins items with commas and conj before the last: List([a b c],
// "or") is "a, b or c"; one item is itself, and none is "".
func List(items []string, conj string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}
