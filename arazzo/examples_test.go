package arazzo_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/outputtest"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

var update = flag.Bool("update", false, "rewrite testdata/examples.golden")

// TestExamplesValidateAndLint pins what specgate validate and specgate
// lint (the default ruleset) say about every Arazzo document of the
// specification's examples: each problem and finding with its line and
// column (testdata/examples.golden; -update rewrites it). None may lack a
// position.
func TestExamplesValidateAndLint(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "arazzo", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/arazzo is not beside the repository")
	}
	golden, err := filepath.Abs(filepath.Join("testdata", "examples.golden"))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		t.Fatal(err)
	}
	sevs, err := rulesets.Builtin(reg, rulesets.Default)
	if err != nil {
		t.Fatal(err)
	}
	// Messages name files as the commands do when run in the examples'
	// folder.
	t.Chdir(dir)
	files, _ := filepath.Glob(filepath.Join("*", "*.yaml"))
	loader := spec.NewLoader(spec.Options{})
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: sevs, Loader: loader})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	documents := 0
	for _, file := range files {
		doc, err := loader.Load(context.Background(), file)
		if err != nil || doc.Format != spec.Arazzo {
			continue
		}
		documents++
		fmt.Fprintf(&b, "== %s\n", file)
		for _, p := range validate.Validate(doc) {
			at := fmt.Sprintf("%s:%d:%d: %s", p.File, p.Range.Start.Line, p.Range.Start.Col, p.Message)
			if p.Range.Start.Line == 0 {
				t.Errorf("validate: a problem without a position: %s", at)
			}
			fmt.Fprintf(&b, "validate %s\n", at)
		}
		res := l.LintFile(context.Background(), file)
		if res.Err != nil {
			t.Errorf("lint %s: %v", file, res.Err)
		}
		for _, d := range res.Findings {
			if d.Range.Start.Line == 0 {
				t.Errorf("lint: a finding without a position: %s %s", d.Rule, d.Message)
			}
			fmt.Fprintf(&b, "lint %s:%d:%d: %s %s: %s\n", d.File, d.Range.Start.Line, d.Range.Start.Col, d.Severity, d.Rule, d.Message)
		}
	}
	if documents < 6 {
		t.Fatalf("found %d Arazzo documents among the examples, want 6", documents)
	}
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("validate and lint of the examples changed (go test ./arazzo -run TestExamplesValidateAndLint -update rewrites testdata/examples.golden):\n%s", outputtest.LineDiff(string(want), got))
	}
}
