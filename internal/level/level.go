// Package level holds the two scales every part of specgate grades findings
// on: the severity of a rule (off, warn, error) and the maturity level a
// specification reaches (Baseline → Platinum). It depends on nothing, so
// that the reports, the lint server and the runtime packages can name a
// severity without importing the rule engine.
package level

import (
	"fmt"
	"iter"
	"slices"
	"strings"
)

// Severity is a rule severity. The zero value is Off.
type Severity int

const (
	Off Severity = iota
	Warn
	Error
)

var severityNames = []string{"off", "warn", "error"}

func (s Severity) String() string {
	if s >= Off && s <= Error {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads "off", "warn" or "error" ("warning" is accepted for
// warn, as peers write it).
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(s) {
	case "off":
		return Off, true
	case "warn", "warning":
		return Warn, true
	case "error":
		return Error, true
	}
	return Off, false
}

// Maturities, from lowest to highest: a spec reaches a level when every
// error-level rule of that level and below passes.
var Maturities = []string{"Baseline", "Bronze", "Silver", "Gold", "Platinum"}

// MaturityNone is the level of a spec that has an error from a Baseline
// rule: it reaches no level.
const MaturityNone = "none"

// Maturity is the level a spec reaches in a run, and what stands before
// the next one.
type Maturity struct {
	// Level is the highest of Maturities such that no rule of that level
	// or a lower one reported an error; MaturityNone when a Baseline rule
	// did.
	Level string
	// Next is the level above Level ("" at Platinum), and Blocking the
	// number of errors from rules of that level: fixing them reaches it.
	Next     string
	Blocking int
}

// Reach computes the maturity of a spec from the maturities of the rules
// behind its error findings (warnings never lower the level, so callers
// pass errors only). A maturity that is not a known level counts as
// Baseline.
func Reach(errors iter.Seq[string]) Maturity {
	errorsAt := make([]int, len(Maturities))
	for m := range errors {
		errorsAt[max(slices.Index(Maturities, m), 0)]++
	}
	reached := len(Maturities) - 1
	for i, n := range errorsAt {
		if n > 0 {
			reached = i - 1
			break
		}
	}
	var m Maturity
	if reached < 0 {
		m.Level = MaturityNone
	} else {
		m.Level = Maturities[reached]
	}
	if next := reached + 1; next < len(Maturities) {
		m.Next, m.Blocking = Maturities[next], errorsAt[next]
	}
	return m
}

// String is "Silver", or "Silver (2 Gold errors to fix for Gold)" when a
// higher level is in reach.
func (m Maturity) String() string { return m.With(m.Level) }

// Blocker says what stands before the next level: "2 Gold errors to fix
// for Gold"; "" at Platinum.
func (m Maturity) Blocker() string {
	if m.Next == "" {
		return ""
	}
	word := "errors"
	if m.Blocking == 1 {
		word = "error"
	}
	return fmt.Sprintf("%d %s %s to fix for %s", m.Blocking, m.Next, word, m.Next)
}

// With writes level (the maturity's level, decorated as a format likes)
// followed by the blocker in parentheses.
func (m Maturity) With(level string) string {
	if b := m.Blocker(); b != "" {
		return level + " (" + b + ")"
	}
	return level
}
