package validate

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// commentWant is a want comment in any of the fixtures' languages:
// `# want "…"` (YAML, GraphQL), `// want "…"` (Protocol Buffers),
// `<!-- want "…" -->` (WSDL).
var commentWant = regexp.MustCompile(`(?:#|//|<!--)\s*want\s+("[^"]*"(?:\s+"[^"]*")*)\s*(?:-->)?\s*$`)

// TestFormatFixtures validates the Protocol Buffers, GraphQL and WSDL
// fixtures of testdata/formats (and an OpenAPI document's SOAP examples):
// every problem must meet a want on its line, every want a problem.
func TestFormatFixtures(t *testing.T) {
	fixtures, _ := filepath.Glob("testdata/formats/*")
	if len(fixtures) < 4 {
		t.Fatalf("fixtures: %v", fixtures)
	}
	for _, name := range fixtures {
		t.Run(filepath.Base(name), func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
			if err != nil {
				t.Fatal(err)
			}
			wants := map[lineKey][]string{}
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(data), "\n") {
				if m := commentWant.FindStringSubmatch(line); m != nil {
					subs, err := quotedList(m[1])
					if err != nil {
						t.Fatal(err)
					}
					k := lineKey{name, int32(i + 1)}
					wants[k] = append(wants[k], subs...)
				}
			}
			problems := Validate(doc)
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
		})
	}
}
