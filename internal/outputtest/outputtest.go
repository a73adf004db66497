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

// SplitHTML takes the content of an HTML page's elements of the given
// names out of it, for golden files that keep what a page renders apart
// from the chrome all pages of a template share (its style and script).
// An element counts when its opening and closing tags stand alone on
// their lines ("<style>" … "</style>"). own is the page with the content
// of each such element replaced by one line "…"; shared holds the
// elements cut out, tags included, in the order they stand.
func SplitHTML(page []byte, names ...string) (own, shared []byte) {
	var cutting string // the closing tag of the element being cut, or ""
	for _, line := range strings.SplitAfter(string(page), "\n") {
		tag := strings.TrimSuffix(line, "\n")
		switch {
		case cutting != "":
			if tag == cutting {
				cutting = ""
				own = append(own, "…\n"+line...)
			}
			shared = append(shared, line...)
			continue
		case strings.HasPrefix(tag, "<") && strings.HasSuffix(tag, ">"):
			for _, n := range names {
				if tag == "<"+n+">" {
					cutting = "</" + n + ">"
					shared = append(shared, line...)
				}
			}
		}
		own = append(own, line...)
	}
	return own, shared
}
