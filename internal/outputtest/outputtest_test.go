package outputtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestBufferConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				fmt.Fprintf(&b, "writer %d\n", i)
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if n := strings.Count(b.String(), "\n"); n != 800 {
		t.Errorf("%d lines, want 800", n)
	}
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if !strings.HasPrefix(l, "writer ") || len(l) != len("writer 0") {
			t.Fatalf("a torn line %q", l)
		}
	}
}

func TestLineDiff(t *testing.T) {
	for _, tc := range []struct{ want, got, diff string }{
		{"a\nb\nc", "a\nb\nc", ""},
		{"a\nb\nc", "c\nb\na", ""},
		{"a\nb\nc", "a\nc", "- b"},
		{"a\nc", "a\nb\nc\nd", "+ b\n+ d"},
		{"x\ny", "y\nz", "- x\n+ z"},
		{"", "a", "- \n+ a"},
	} {
		if got := LineDiff(tc.want, tc.got); got != tc.diff {
			t.Errorf("LineDiff(%q, %q) = %q, want %q", tc.want, tc.got, got, tc.diff)
		}
	}
}

func TestLineDiffIsBounded(t *testing.T) {
	var want []string
	for i := range 45 {
		want = append(want, fmt.Sprint("line ", i))
	}
	diff := strings.Split(LineDiff(strings.Join(want, "\n"), ""), "\n")
	if len(diff) != 41 || diff[0] != "- line 0" || diff[39] != "- line 39" || diff[40] != "… and 6 more" {
		t.Errorf("%d lines: first %q, last %q", len(diff), diff[0], diff[len(diff)-1])
	}
}
