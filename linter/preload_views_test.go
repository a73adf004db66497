package linter

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// brokenSpec has a problem of structure (a list where an operation's
// responses object stands) beside a finding of a rule.
const brokenSpec = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      responses:
        - 200
    post:
      responses:
        "201": {description: Created}
`

// TestPreloadedLintDropsTheViews: a preloaded spec is linted as LintFile
// lints it, its problems of structure included (checked while its input
// is built), with its views dropped before the rules run; a caller that
// keeps the document keeps them.
func TestPreloadedLintDropsTheViews(t *testing.T) {
	file := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(file, []byte(brokenSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := policy.LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l, err := New(ctx, Options{Registry: reg, Severities: rulesets.Severities{"operation-description": reg.Rule("operation-description").Severity}})
	if err != nil {
		t.Fatal(err)
	}
	want := l.LintFile(ctx, file)
	ruleIDs := func(r Result) []string {
		var ids []string
		for _, d := range r.Findings {
			ids = append(ids, d.Rule)
		}
		return ids
	}
	if ids := ruleIDs(want); !slices.Contains(ids, StructureRule) || !slices.Contains(ids, "operation-description") {
		t.Fatalf("LintFile: diagnostics of %q, want %s and operation-description", ids, StructureRule)
	}
	for _, keep := range []bool{false, true} {
		loader := spec.NewLoader(spec.Options{})
		pre := Preload(ctx, loader, []string{file})
		<-pre.done
		views := pre.doc.Views()
		got, _ := l.LintPreloaded(ctx, pre, file, keep)
		if !slices.Equal(got.Findings, want.Findings) {
			t.Errorf("keep %v: diagnostics %+v, want LintFile's %+v", keep, got.Findings, want.Findings)
		}
		if dropped := pre.doc.Views() != views; dropped == keep {
			t.Errorf("keep %v: views dropped %v, want %v", keep, dropped, !keep)
		}
	}
}
