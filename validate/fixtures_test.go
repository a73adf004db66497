package validate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/internal/wanttest"
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
	runFixtures(t, fixtures, func(t *testing.T, _ string, doc *spec.Document, wants wanttest.Wants) {
		for _, f := range doc.Files() {
			wanttest.Read(t, f.Name, wanttest.Hash, wants)
		}
	})
}

// runFixtures loads and validates each fixture in a subtest and checks its
// problems against the want comments that readAll collects for the fixture
// name, loaded as doc.
func runFixtures(t *testing.T, fixtures []string, readAll func(t *testing.T, name string, doc *spec.Document, wants wanttest.Wants)) {
	for _, name := range fixtures {
		t.Run(filepath.Base(name), func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
			if err != nil {
				t.Fatal(err)
			}
			wants := wanttest.Wants{}
			readAll(t, name, doc, wants)
			var found []wanttest.Found
			for _, p := range Validate(doc) {
				found = append(found, wanttest.Found{File: p.File, Line: int(p.Range.Start.Line), Col: int(p.Range.Start.Col), Message: p.Message})
			}
			wanttest.Check(t, wants, found)
		})
	}
}
