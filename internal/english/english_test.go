package english

import "testing"

func TestNounAndCount(t *testing.T) {
	for _, tc := range []struct {
		n           int
		one, many   string
		noun, count string
	}{
		{0, "operation", "operations", "operations", "0 operations"},
		{1, "operation", "operations", "operation", "1 operation"},
		{2, "entry", "entries", "entries", "2 entries"},
		{-1, "step", "steps", "steps", "-1 steps"},
		{1000000, "byte", "bytes", "bytes", "1000000 bytes"},
		{1, "does", "do", "does", "1 does"},
	} {
		if got := Noun(tc.n, tc.one, tc.many); got != tc.noun {
			t.Errorf("Noun(%d, %q, %q) = %q, want %q", tc.n, tc.one, tc.many, got, tc.noun)
		}
		if got := Count(tc.n, tc.one, tc.many); got != tc.count {
			t.Errorf("Count(%d, %q, %q) = %q, want %q", tc.n, tc.one, tc.many, got, tc.count)
		}
	}
}
