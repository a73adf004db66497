package compat

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/wanttest"
)

var otherComment = regexp.MustCompile(`#\s*other\s+(.*)$`)

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
			others := wanttest.Wants{}
			for _, file := range fx.files {
				if err := wanttest.Parse(file.Name, file.Data, otherComment, others); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
			var found []wanttest.Found
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
				found = append(found, wanttest.Found{File: fx.rel(other.File), Line: other.Line, Col: other.Column, Message: c.RuleID})
			}
			for _, m := range wanttest.Match(others, found, wanttest.Exact()) {
				t.Errorf("other side: %s", m)
			}
			if t.Failed() {
				for _, c := range res.Changes {
					t.Logf("found: %s %s: base %s %s, revision %s %s", c.RuleID, c.Location, c.Base, c.Base.Pointer, c.Revision, c.Revision.Pointer)
				}
			}
		})
	}
}
