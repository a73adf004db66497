// Package suggest finds the name a user most likely meant, for the "did
// you mean" of error messages about misspelt keys, rules, schemes and
// commands.
package suggest

import (
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Closest is the candidate got most likely misspells: one that got is the
// start of (three characters at least), else the nearest by edit distance
// (case-insensitive) within a third of got's length plus two; "" when none
// is that close. A candidate equal to got is no suggestion.
func Closest(got string, candidates []string) string {
	lower := strings.ToLower(got)
	best, bestD := "", len(got)/3+2
	for _, c := range candidates {
		if c == got {
			continue
		}
		lc := strings.ToLower(c)
		if len(got) >= 3 && strings.HasPrefix(lc, lower) {
			return c
		}
		if d := levenshtein.ComputeDistance(lower, lc); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Hint is `; did you mean "x"?` for the Closest candidate, or "".
func Hint(got string, candidates []string) string {
	if c := Closest(got, candidates); c != "" {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}
