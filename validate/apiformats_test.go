package validate

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/specgate/specgate/internal/wanttest"
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
	runFixtures(t, fixtures, func(t *testing.T, name string, _ *spec.Document, wants wanttest.Wants) {
		wanttest.Read(t, name, commentWant, wants)
	})
}
