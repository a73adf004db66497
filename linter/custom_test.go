package linter_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/rulesets"
)

const customDir = "../testdata/custom"

func customSetup(t *testing.T) *rulesets.Setup {
	t.Helper()
	setup, err := rulesets.Load(rulesets.Options{Ruleset: filepath.Join(customDir, "ruleset.yaml"), NoSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	return setup
}

// TestCustomRuleset runs the ruleset that uses every core function and
// JSONPath form over its fixtures, as `specgate rules test` does.
func TestCustomRuleset(t *testing.T) {
	setup := customSetup(t)
	fixtures, err := linter.FindFixtures(customDir)
	if err != nil || len(fixtures) < 2 {
		t.Fatalf("fixtures = %v, %v", fixtures, err)
	}
	results := linter.CheckFixtures(context.Background(), linter.Options{Registry: setup.Registry, Severities: setup.Severities}, fixtures)
	for _, r := range results {
		if r.Err != nil {
			t.Errorf("%s: %v", r.File, r.Err)
		}
		for _, w := range r.Missing {
			t.Errorf("%s: expected %s, not reported", r.File, w)
		}
		for _, w := range r.Unexpected {
			t.Errorf("%s: reported %s, not expected", r.File, w)
		}
	}
	// Every function of the ruleset ran: the fixtures expect at least one
	// finding of each rule.
	wanted := map[string]bool{}
	for _, f := range fixtures {
		ws, _ := linter.ReadWants(f)
		for _, w := range ws {
			wanted[w.Rule] = true
		}
	}
	for _, c := range setup.Compiled {
		if !wanted[c.ID] {
			t.Errorf("rule %s has no expected finding in the fixtures", c.ID)
		}
	}
}

// TestSpectralAgreement compares specgate's findings with Spectral's on
// the same ruleset and fixtures (spectral.json, recorded by agreement.sh):
// rule and line must match one for one. Rules using typedEnum are not in
// Spectral's run (it has no such function for custom rulesets).
func TestSpectralAgreement(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(customDir, "spectral.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		File string
		Line int
		Code string
	}
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	type finding struct {
		file, code string
		line       int
	}
	spectral := map[finding]int{}
	for _, r := range rows {
		spectral[finding{r.File, r.Code, r.Line}]++
	}
	setup := customSetup(t)
	skip := map[string]bool{}
	for _, c := range setup.Compiled {
		for _, th := range c.Def.Then {
			if th.Function == "typedEnum" {
				skip[c.ID] = true
			}
		}
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: setup.Registry, Severities: setup.Severities})
	if err != nil {
		t.Fatal(err)
	}
	fixtures, _ := linter.FindFixtures(customDir)
	ours := map[finding]int{}
	for _, f := range fixtures {
		res := l.LintFile(context.Background(), f)
		rel, _ := filepath.Rel(customDir, f)
		for _, d := range res.Findings {
			if !skip[d.Rule] {
				ours[finding{filepath.ToSlash(rel), d.Rule, int(d.Range.Start.Line)}]++
			}
		}
	}
	for k, n := range spectral {
		if ours[k] != n {
			t.Errorf("Spectral reports %s at %s:%d (%d times), specgate %d times", k.code, k.file, k.line, n, ours[k])
		}
	}
	for k, n := range ours {
		if spectral[k] == 0 {
			t.Errorf("specgate reports %s at %s:%d (%d times), Spectral does not", k.code, k.file, k.line, n)
		}
	}
	if len(spectral) < 15 || !slices.ContainsFunc(rows, func(r struct {
		File string
		Line int
		Code string
	}) bool {
		return r.Code == "response-descriptions-final"
	}) {
		t.Errorf("spectral.json looks incomplete: %d findings", len(rows))
	}
}

// TestPublishedRuleset loads a Spectral ruleset published on npm
// (testdata/published/rhoas, Apache-2.0) and runs it on corpus specs.
func TestPublishedRuleset(t *testing.T) {
	dir := "../testdata/published/rhoas"
	if _, err := rulesets.Load(rulesets.Options{Ruleset: filepath.Join(dir, "ruleset.original.yaml"), NoSearch: true}); err == nil ||
		!strings.Contains(err.Error(), "ruleset.original.yaml:53:1") {
		t.Errorf("the \\/ escape: error = %v, want one at 53:1", err)
	}
	if _, err := rulesets.Load(rulesets.Options{Ruleset: filepath.Join(dir, "ruleset.yaml"), NoSearch: true}); err == nil ||
		!strings.Contains(err.Error(), `function "schemaDefinition" has no Rego implementation; it is used by "rhoas-error-schema", "rhoas-object-schema", "rhoas-list-schema"`) {
		t.Errorf("missing functions: error = %v", err)
	}
	setup, err := rulesets.Load(rulesets.Options{Ruleset: filepath.Join(dir, "ruleset.yaml"), NoSearch: true, SkipMissingFunctions: true})
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, s := range setup.Skipped {
		skipped = append(skipped, s.Rule)
	}
	slices.Sort(skipped)
	want := []string{"rhoas-error-response", "rhoas-error-schema", "rhoas-info-license-apache2.0", "rhoas-list-schema", "rhoas-object-resource-schema", "rhoas-object-schema", "rhoas-servers-config"}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped = %v, want %v", skipped, want)
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: setup.Registry, Severities: setup.Severities})
	if err != nil {
		t.Fatal(err)
	}
	corpus := "../../shared/corpus/"
	results := l.LintFiles(context.Background(), []string{corpus + "petstore-expanded.yaml", corpus + "uber-v2.json", corpus + "webhook-example-3.1.yaml", corpus + "stripe.yaml"})
	for _, r := range results {
		if r.Err != nil {
			t.Errorf("%s: %v", r.File, r.Err)
		}
	}
	found := false
	for _, d := range results[0].Findings {
		if d.Rule == "rhoas-path-regexp" && d.Range.Start.Line == 17 {
			found = true
		}
	}
	if !found {
		t.Errorf("petstore-expanded: no rhoas-path-regexp at line 17: %+v", results[0].Findings)
	}
}
