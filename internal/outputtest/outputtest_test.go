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

func TestSplitPage(t *testing.T) {
	for _, tc := range []struct{ page, own, chrome string }{
		{"<html>\n<head>\n<title>A</title>\n<style>\na {}\n</style>\n</head>\n<body>\n<h1>A</h1>\n<p>x</p>\n<script>\nf()\n</script>\n</body>\n</html>\n",
			"<title>A</title>\n…\n<h1>A</h1>\n<p>x</p>\n…\n",
			"<html>\n<head>\n…\n<style>\na {}\n</style>\n</head>\n<body>\n…\n<script>\nf()\n</script>\n</body>\n</html>\n"},
		// A page that starts with its own lines; one without a script.
		{"<title>B</title>\n<body>\n<p>y</p>\n</body>\n", "<title>B</title>\n…\n<p>y</p>\n…\n", "…\n<body>\n…\n</body>\n"},
		// Text that is no page is all chrome.
		{"plain\ntext", "", "plain\ntext"},
		{"", "", ""},
	} {
		own, chrome := SplitPage([]byte(tc.page))
		if string(own) != tc.own || string(chrome) != tc.chrome {
			t.Errorf("SplitPage(%q) =\n%q,\n%q; want\n%q,\n%q", tc.page, own, chrome, tc.own, tc.chrome)
		}
	}
}
