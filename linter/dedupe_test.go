package linter_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// TestViolationsThatLocateAlikeAreOneDiagnostic: violations of absent
// fields of one object locate at that object; with one message they are
// one diagnostic, however many there are (enough for several cores to
// locate them).
func TestViolationsThatLocateAlikeAreOneDiagnostic(t *testing.T) {
	const src = `# METADATA
# title: T
# description: D
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: correctness
#   formats: [oas3]
package specgate.rules["absent"]

violations contains {"path": ["info", sprintf("x-absent-%d", [i])], "message": "info lacks something"} if {
	some i in numbers.range(1, 5000)
}

violations contains {"path": ["info", "title"], "message": "the title is short"} if true
`
	reg := &policy.Registry{}
	if err := reg.AddModule("user/absent.rego", src, false); err != nil {
		t.Fatal(err)
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: rulesets.Severities{"absent": level.Warn},
		Loader: spec.NewLoader(spec.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "api.yaml")
	if err := os.WriteFile(file, []byte("openapi: 3.1.0\ninfo:\n  title: T\n  version: \"1\"\npaths: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := l.LintFile(context.Background(), file)
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Range.Start.Line, d.Range.Start.Col, d.Pointer, d.Message))
	}
	want := []string{"2:1 /info info lacks something", "3:3 /info/title the title is short"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("diagnostics %q, want %q", got, want)
	}
}
