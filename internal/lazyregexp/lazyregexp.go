// Package lazyregexp holds regular expressions compiled on first use.
// Every command pays for every package's package-level values at start-up:
// a pattern that only some commands need (folder expansion, YAML error
// messages, the validate and compat commands) should not be compiled by a
// lint of one file.
package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call (panicking,
// as regexp.MustCompile does, if expr is invalid) and returns the same
// compiled expression on every call.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
