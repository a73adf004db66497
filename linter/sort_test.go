package linter_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// TestSortIsATotalOrder: diagnostics sort by file, start, rule, message,
// pointer and end, whatever order they come in.
func TestSortIsATotalOrder(t *testing.T) {
	at := func(file string, line, col int32, rule, msg, ptr string, endCol int32) reports.Finding {
		return reports.Finding{File: file, Rule: rule, Message: msg, Pointer: ptr,
			Range: spec.Range{Start: spec.Pos{Line: line, Col: col}, End: spec.Pos{Line: line, Col: endCol}}}
	}
	want := []reports.Finding{
		at("a.yaml", 2, 5, "z-rule", "m", "/p", 9),
		at("a.yaml", 10, 1, "a-rule", "m", "/p", 9),
		at("a.yaml", 10, 3, "a-rule", "m", "/p", 9),
		at("a.yaml", 10, 3, "b-rule", "m", "/p", 9),
		at("a.yaml", 10, 3, "b-rule", "n", "/p", 9),
		// Two paths the same node locates (a missing key points at its
		// parent): the pointer decides.
		at("a.yaml", 10, 3, "b-rule", "n", "/p/10", 9),
		at("a.yaml", 10, 3, "b-rule", "n", "/p/9", 9),
		at("a.yaml", 10, 3, "b-rule", "n", "/p/9", 12),
		at("b.yaml", 1, 1, "a-rule", "m", "", 1),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		got := slices.Clone(want)
		r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		linter.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("sorted:\n%v\nwant:\n%v", got, want)
		}
	}
}
