// Package outputtest helps tests read what the code under test writes: a
// Buffer that a server's goroutines log to while the test reads it, and
// LineDiff, which says how a text differs from the golden one expected.
// Only tests import it.
package outputtest

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent writes and reads: a
// logger or a command's standard error writes to it while the test reads
// it. The zero value is empty and ready to use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// LineDiff lists the lines only one of two texts has, those of want alone
// marked "- " and those of got alone "+ ", each in its text's order, the
// first maxDiffLines of them and a count of the rest; "" when both have
// the same lines. It is for the message of a failed golden comparison,
// where the order of lines rarely matters to the reader.
func LineDiff(want, got string) string {
	in := func(text string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(text, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var out []string
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			out = append(out, "+ "+l)
		}
	}
	if len(out) > maxDiffLines {
		out = append(out[:maxDiffLines], fmt.Sprintf("… and %d more", len(out)-maxDiffLines))
	}
	return strings.Join(out, "\n")
}

// maxDiffLines bounds a LineDiff, so that a golden file rewritten from
// scratch does not bury the test's other messages.
const maxDiffLines = 40

// SplitPage splits an HTML page made from a template into what the page
// renders and the chrome all pages of the template share, for golden files
// that hold the first for each page and the second once. The page's own
// lines are its <title> line and the lines of its <body> before a
// <script> line; the chrome is the rest: the head with its style, the
// script and the closing tags. Where a run of lines of one side stood, the
// other holds a line "…", so that the two together say the whole page.
func SplitPage(page []byte) (own, chrome []byte) {
	var inBody, inScript, lastOwn bool
	first := true
	for _, line := range strings.SplitAfter(string(page), "\n") {
		if line == "" {
			continue
		}
		tag := strings.TrimSpace(line)
		isOwn := false
		switch {
		case strings.HasPrefix(tag, "<title>"):
			isOwn = true
		case tag == "<body>":
			inBody = true
		case tag == "<script>":
			inScript = true
		case tag == "</body>":
			inBody = false
		default:
			isOwn = inBody && !inScript
		}
		if first || isOwn != lastOwn {
			if isOwn {
				chrome = append(chrome, "…\n"...)
			} else if !first {
				own = append(own, "…\n"...)
			}
		}
		if isOwn {
			own = append(own, line...)
		} else {
			chrome = append(chrome, line...)
		}
		first, lastOwn = false, isOwn
	}
	return own, chrome
}
