package linter_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

// lintRealSpecs lints and validates every specification under dirs with
// the strict ruleset: each must load and lint without an error (a panic
// fails the test binary), at any size up to 128 MiB.
func lintRealSpecs(t *testing.T, dirs []string) {
	t.Helper()
	names, errs := spec.Expand(dirs)
	for _, err := range errs {
		t.Errorf("%v", err)
	}
	if len(names) == 0 {
		t.Fatalf("no specification under %v", dirs)
	}
	loader := spec.NewLoader(spec.Options{Limits: spec.Limits{MaxFileSize: 128 << 20}})
	l, err := linter.Open(context.Background(), linter.Config{Rules: rulesets.Options{Ruleset: "strict", NoSearch: true},
		Loader: loader, Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	findings := 0
	for _, r := range l.LintFiles(context.Background(), names) {
		if r.Err != nil {
			t.Errorf("%s: %v", r.File, r.Err)
		}
		findings += len(r.Findings)
	}
	t.Logf("linted %d specifications in %s: %d findings", len(names), time.Since(start).Round(time.Second), findings)
	for _, name := range names {
		doc, err := loader.Load(context.Background(), name)
		if err != nil {
			continue // reported above
		}
		validate.Validate(doc)
	}
}

// TestRealSpecs lints the public API descriptions that
// scripts/real-specs.sh fetches: SPECGATE_REAL_SPECS names their folders
// (separated by colons). Without it the test is skipped.
func TestRealSpecs(t *testing.T) {
	env := os.Getenv("SPECGATE_REAL_SPECS")
	if env == "" {
		t.Skip("SPECGATE_REAL_SPECS is not set: run scripts/real-specs.sh")
	}
	lintRealSpecs(t, strings.Split(env, string(os.PathListSeparator)))
}

// TestCorpusStrict lints the whole shared corpus, GitHub's 13 MB
// description included, under the strict ruleset: about a minute under the
// race detector, so only with SPECGATE_CORPUS=1 (.ci/run sets it); the
// smaller corpus specs are linted by the tests of concurrentInputs.
func TestCorpusStrict(t *testing.T) {
	if testing.Short() || os.Getenv("SPECGATE_CORPUS") != "1" {
		t.Skip("lints 30 MB of specifications: set SPECGATE_CORPUS=1")
	}
	lintRealSpecs(t, []string{filepath.Join("..", "..", "shared", "corpus")})
}
