// Package wanttest checks what a test found in a fixture against the want
// comments written on the fixture's lines, such as
//
//	dependsOn: [a] # want "dependsOn makes a cycle: a → b → c → a"
//
// A comment holds one or more Go-quoted substrings, and may put a word
// before them (`# want broken "…"`) that what is found must carry too.
// Every problem found must meet a want on its own line whose substring its
// message contains (with Exact, whose text its message is), and every want
// must be met by one problem. Only tests import it.
package wanttest

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Hash finds a want comment of YAML or GraphQL: `# want "…"`, after which
// the line holds nothing but its quoted substrings.
var Hash = regexp.MustCompile(`#\s*want\s+(.*)$`)

// Key is a line of a file, 1-based.
type Key struct {
	File string
	Line int
}

// Want is one substring a want comment asks for, and the word written
// before it ("" when none).
type Want struct {
	Text, Tag string
}

// Wants are the wants of one or more files by line.
type Wants map[Key][]Want

// Read adds the want comments of the file name to wants, as Parse does;
// it fails the test when the file cannot be read or a comment is not a
// list of quoted strings.
func Read(t testing.TB, name string, re *regexp.Regexp, wants Wants) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := Parse(name, data, re, wants); err != nil {
		t.Fatal(err)
	}
}

// Parse adds the want comments of data, the content of the file name, to
// wants. re finds a comment on a line; its first group is what follows
// the word want: an optional tag word, then one or more Go-quoted strings.
func Parse(name string, data []byte, re *regexp.Regexp, wants Wants) error {
	for i, line := range strings.Split(string(data), "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rest, tag := strings.TrimSpace(m[1]), ""
		if !strings.HasPrefix(rest, `"`) {
			tag, rest, _ = strings.Cut(rest, " ")
		}
		texts, err := quotedList(rest)
		if err != nil {
			return fmt.Errorf("%s:%d: bad want comment: %v", name, i+1, err)
		}
		k := Key{name, i + 1}
		for _, s := range texts {
			wants[k] = append(wants[k], Want{Text: s, Tag: tag})
		}
	}
	return nil
}

// quotedList parses `"a" "b"` into its Go-quoted strings; there is at
// least one.
func quotedList(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != "" || out == nil; s = strings.TrimSpace(s) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		u, _ := strconv.Unquote(q)
		out = append(out, u)
		s = s[len(q):]
	}
	return out, nil
}

// Found is a problem a test found: where it is located, its message, and
// the tag its want must carry ("" for none).
type Found struct {
	File      string
	Line, Col int
	Message   string
	Tag       string
}

// An Option changes how Match pairs what was found with the wants.
type Option func(*matching)

// matching is what the options of a Match set.
type matching struct {
	exact bool
}

// Exact pairs a problem only with a want whose text is its whole message,
// for wants that are identifiers of which one may hold another: a want of
// "request-body-added" is then not met by "request-body-added-required".
func Exact() Option {
	return func(m *matching) { m.exact = true }
}

// Check reports to t each mismatch Match finds.
func Check(t testing.TB, wants Wants, found []Found, opts ...Option) {
	t.Helper()
	for _, m := range Match(wants, found, opts...) {
		t.Error(m)
	}
}

// Match consumes wants with what was found and describes each mismatch: a
// problem that meets no want on its line, one whose want carries another
// tag, and a want that no problem met (sorted by file and line). A problem
// takes the first want of its line whose substring its message contains,
// or with Exact whose text its message is. wants is left holding the wants
// no problem met.
func Match(wants Wants, found []Found, opts ...Option) []string {
	var m matching
	for _, o := range opts {
		o(&m)
	}
	var out []string
	for _, f := range found {
		k := Key{f.File, f.Line}
		i := m.index(wants[k], f.Message)
		if i < 0 {
			out = append(out, fmt.Sprintf("%s:%d:%d: unexpected problem: %s", f.File, f.Line, f.Col, f.Message))
			continue
		}
		if w := wants[k][i]; w.Tag != f.Tag {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s: found tagged %q, wanted tagged %q", f.File, f.Line, f.Col, f.Message, f.Tag, w.Tag))
		}
		wants[k] = append(wants[k][:i], wants[k][i+1:]...)
	}
	keys := slices.SortedFunc(maps.Keys(wants), func(a, b Key) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	for _, k := range keys {
		for _, w := range wants[k] {
			out = append(out, fmt.Sprintf("%s:%d: missing problem matching %q", k.File, k.Line, w.Text))
		}
	}
	return out
}

// index is the first of ws that msg meets, or -1.
func (m matching) index(ws []Want, msg string) int {
	for i, w := range ws {
		if msg == w.Text || !m.exact && strings.Contains(msg, w.Text) {
			return i
		}
	}
	return -1
}
