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

func TestSplitHTML(t *testing.T) {
	for _, tc := range []struct{ page, own, shared string }{
		{"<html>\n<style>\na {}\nb {}\n</style>\n<p>x</p>\n<script>\nf()\n</script>\n</html>\n",
			"<html>\n<style>\n…\n</style>\n<p>x</p>\n<script>\n…\n</script>\n</html>\n",
			"<style>\na {}\nb {}\n</style>\n<script>\nf()\n</script>\n"},
		// Tags that do not stand alone on their lines, and other elements, stay.
		{"<p><style>a {}</style></p>\n<pre>\nx\n</pre>\n", "<p><style>a {}</style></p>\n<pre>\nx\n</pre>\n", ""},
		// An element left open takes the rest of the page.
		{"<p>\n<script>\nf()\n", "<p>\n<script>\n", "<script>\nf()\n"},
		{"", "", ""},
	} {
		own, shared := SplitHTML([]byte(tc.page), "style", "script")
		if string(own) != tc.own || string(shared) != tc.shared {
			t.Errorf("SplitHTML(%q) = %q, %q; want %q, %q", tc.page, own, shared, tc.own, tc.shared)
		}
	}
}
