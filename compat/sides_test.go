package compat

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var otherRE = regexp.MustCompile(`#\s*other((?:\s+"[^"]+")+)`)

// TestBothSides checks that each change is placed in both versions: the
// fixtures of testdata/sides mark with `# want` where a change is written
// and with `# other` where the other version writes what changed.
func TestBothSides(t *testing.T) {
	files, err := filepath.Glob("testdata/sides/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			fx := readFixture(t, f)
			res := fx.check(t)
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var wants []want
			for _, file := range ar.Files {
				sc := bufio.NewScanner(bytes.NewReader(file.Data))
				for line := 1; sc.Scan(); line++ {
					if m := otherRE.FindStringSubmatch(sc.Text()); m != nil {
						for _, q := range quotedRE.FindAllStringSubmatch(m[1], -1) {
							wants = append(wants, want{file.Name, line, q[1]})
						}
					}
				}
			}
			got := map[want]int{}
			for _, c := range res.Changes {
				own, other := c.Revision, c.Base
				if c.Location.Side == Base {
					own, other = c.Base, c.Revision
				}
				if own != c.Location {
					t.Errorf("%s: its own side's place %+v is not its location %+v", c.RuleID, own, c.Location)
				}
				if other.File == "" || other.Side == c.Location.Side {
					t.Errorf("%s at %s: no place in the other version (%+v)", c.RuleID, c.Location, other)
					continue
				}
				rel, err := filepath.Rel(fx.dir, other.File)
				if err != nil {
					rel = other.File
				}
				got[want{filepath.ToSlash(rel), other.Line, c.RuleID}]++
			}
			compareWants(t, " other side", wants, got)
			if t.Failed() {
				for _, c := range res.Changes {
					t.Logf("found: %s %s: base %s %s, revision %s %s", c.RuleID, c.Location, c.Base, c.Base.Pointer, c.Revision, c.Revision.Pointer)
				}
			}
		})
	}
}
