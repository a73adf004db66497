package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestFixtures validates each testdata/*.yaml and compares the problems
// with the `# want "substring"` comments of the fixture and of the files
// it references: a problem must have a want on its line whose substring
// its message contains, and every want must be met.
func TestFixtures(t *testing.T) {
	fixtures, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	runFixtures(t, fixtures, func(t *testing.T, _ string, doc *spec.Document, wants map[lineKey][]string) {
		for _, f := range doc.Files() {
			readWants(t, f.Name, wantComment, wants)
		}
	})
}

// runFixtures loads and validates each fixture in a subtest and checks its
// problems against the want comments that readAll collects for the fixture
// name, loaded as doc.
func runFixtures(t *testing.T, fixtures []string, readAll func(t *testing.T, name string, doc *spec.Document, wants map[lineKey][]string)) {
	for _, name := range fixtures {
		t.Run(filepath.Base(name), func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
			if err != nil {
				t.Fatal(err)
			}
			wants := map[lineKey][]string{}
			readAll(t, name, doc, wants)
			checkWants(t, Validate(doc), wants)
		})
	}
}

type lineKey struct {
	file string
	line int32
}

var wantComment = regexp.MustCompile(`#\s*want\s+(".*)$`)

// readWants collects the want comments of a file by line; re's first group
// is the comment's list of quoted substrings.
func readWants(t *testing.T, name string, re *regexp.Regexp, wants map[lineKey][]string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		subs, err := quotedList(m[1])
		if err != nil {
			t.Fatalf("%s:%d: bad want comment: %v", name, i+1, err)
		}
		k := lineKey{name, int32(i + 1)}
		wants[k] = append(wants[k], subs...)
	}
}

// quotedList parses `"a" "b"` into its Go-quoted strings.
func quotedList(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
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

// checkWants reports each problem that meets no want on its line and each
// want that no problem met.
func checkWants(t *testing.T, problems []Problem, wants map[lineKey][]string) {
	t.Helper()
	for _, p := range problems {
		k := lineKey{p.File, p.Range.Start.Line}
		if i := matchWant(wants[k], p.Message); i >= 0 {
			wants[k] = append(wants[k][:i], wants[k][i+1:]...)
			continue
		}
		t.Errorf("%s:%d:%d: unexpected problem: %s", p.File, p.Range.Start.Line, p.Range.Start.Col, p.Message)
	}
	for k, ws := range wants {
		for _, w := range ws {
			t.Errorf("%s:%d: missing problem matching %q", k.file, k.line, w)
		}
	}
}

func matchWant(ws []string, msg string) int {
	for i, w := range ws {
		if strings.Contains(msg, w) {
			return i
		}
	}
	return -1
}
