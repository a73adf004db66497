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

func TestList(t *testing.T) {
	for _, tc := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"integer"}, "integer"},
		{[]string{"string", "null"}, "string or null"},
		{[]string{"400", "404", "422"}, "400, 404 or 422"},
	} {
		if got := List(tc.items, "or"); got != tc.want {
			t.Errorf("List(%q) = %q, want %q", tc.items, got, tc.want)
		}
	}
	if got := List([]string{"a", "b"}, "and"); got != "a and b" {
		t.Errorf("List with and = %q", got)
	}
}
