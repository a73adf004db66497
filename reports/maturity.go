package reports

import (
	"fmt"
	"slices"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
)

// MaturityNone is the level of a spec that has an error from a Baseline
// rule: it reaches no level.
const MaturityNone = "none"

// MaturityLevel is the maturity a loaded file reaches in a run.
type MaturityLevel struct {
	// Level is the highest of level.Maturities (Baseline, Bronze, Silver,
	// Gold, Platinum) such that no rule of that level or a lower one
	// reported an error; MaturityNone when a Baseline rule did.
	Level string
	// Next is the level above Level ("" at Platinum), and Blocking the
	// number of errors from rules of that level: fixing them reaches it.
	Next     string
	Blocking int
}

// Maturity computes the level a result reaches. Only error diagnostics
// count: warnings never lower the level. The level is relative to the rules
// that ran (a ruleset that turns a rule off or down to warn cannot fail
// on it). A diagnostic whose maturity is not a known level (none of the
// built-in rules) counts as Baseline. A file that did not load, or whose
// rules did not finish, has no level (ok is false).
func Maturity(r linter.Result) (m MaturityLevel, ok bool) {
	if r.Err != nil {
		return MaturityLevel{}, false
	}
	errorsAt := make([]int, len(level.Maturities))
	for _, d := range r.Diagnostics {
		if d.Severity == level.Error {
			errorsAt[max(slices.Index(level.Maturities, d.Maturity), 0)]++
		}
	}
	reached := len(level.Maturities) - 1
	for i, n := range errorsAt {
		if n > 0 {
			reached = i - 1
			break
		}
	}
	if reached < 0 {
		m.Level = MaturityNone
	} else {
		m.Level = level.Maturities[reached]
	}
	if next := reached + 1; next < len(level.Maturities) {
		m.Next, m.Blocking = level.Maturities[next], errorsAt[next]
	}
	return m, true
}

// String is "Silver", or "Silver (2 Gold errors to fix for Gold)" when a
// higher level is in reach.
func (m MaturityLevel) String() string { return m.with(m.Level) }

// Blocker says what stands before the next level: "2 Gold errors to fix
// for Gold"; "" at Platinum.
func (m MaturityLevel) Blocker() string {
	if m.Next == "" {
		return ""
	}
	return fmt.Sprintf("%d %s %s to fix for %s", m.Blocking, m.Next, plural(m.Blocking, "error"), m.Next)
}

// with is the level written as level, then its blocker in parentheses.
func (m MaturityLevel) with(level string) string {
	if b := m.Blocker(); b != "" {
		return level + " (" + b + ")"
	}
	return level
}
