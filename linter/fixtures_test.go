package linter_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/rulesets"
)

func registry(t testing.TB) *policy.Registry {
	t.Helper()
	reg, err := policy.LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestRuleFixtures runs every built-in rule over its fixtures and
// compares the rule's diagnostics with the fixtures' `# want` annotations:
// a missing and an unexpected diagnostic both fail. One linter runs every
// rule at its original severity and each rule's diagnostics are taken
// from its result (rules do not read each other's findings): a linter per
// rule compiled the libraries once per rule, most of this test's time.
func TestRuleFixtures(t *testing.T) {
	reg := registry(t)
	sevs := rulesets.Severities{}
	for _, rule := range reg.Rules {
		sevs[rule.ID] = rule.Severity
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: sevs})
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range reg.Rules {
		t.Run(rule.ID, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join("..", "rules", rule.ID, "testdata", "*"))
			var fixtures []string
			for _, f := range files {
				if linter.IsFixture(f) {
					fixtures = append(fixtures, f)
				}
			}
			if len(fixtures) == 0 {
				t.Fatalf("rule %s has no fixtures in rules/%s/testdata", rule.ID, rule.ID)
			}
			for _, f := range fixtures {
				wants, err := linter.ReadWants(f)
				if err != nil {
					t.Fatal(err)
				}
				res := only(l.LintFile(context.Background(), f), rule.ID)
				if res.Err != nil {
					t.Errorf("%s: %v", f, res.Err)
					continue
				}
				missing, unexpected := linter.Compare(res, wants)
				for _, w := range missing {
					t.Errorf("%s: expected %s, not reported", f, w)
				}
				for _, w := range unexpected {
					t.Errorf("%s: unexpected %s: %s", f, w, messageAt(res, w))
				}
			}
		})
	}
}

// only keeps the diagnostics of one rule, and those of the pipeline
// (load errors, unreadable structure), which a linter of that rule alone
// reports too.
func only(res linter.Result, rule string) linter.Result {
	kept := res.Findings[:0:0]
	for _, d := range res.Findings {
		if d.Rule == rule || d.Rule == linter.LoadErrorRule || d.Rule == linter.StructureRule || d.Rule == linter.TimeoutRule {
			kept = append(kept, d)
		}
	}
	res.Findings = kept
	return res
}

func messageAt(res linter.Result, w linter.Want) string {
	var msgs []string
	for _, d := range res.Findings {
		if int(d.Range.Start.Line) == w.Line {
			msgs = append(msgs, d.Message)
		}
	}
	return strings.Join(msgs, "; ")
}

// TestEveryRuleHasFixturesForItsFormats checks that fixtures cover each
// format family a rule declares, so a rule is proven on every version it
// claims to support.
func TestEveryRuleHasFixturesForItsFormats(t *testing.T) {
	reg := registry(t)
	for _, rule := range reg.Rules {
		entries, err := os.ReadDir(filepath.Join("..", "rules", rule.ID, "testdata"))
		if err != nil {
			t.Errorf("%s: %v", rule.ID, err)
			continue
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		all := strings.Join(names, " ")
		for _, f := range rule.Formats {
			var need []string
			switch f {
			case "oas2":
				need = []string{".swagger2."}
			case "oas3":
				need = []string{".oas3.0.", ".oas3.1."}
			case "oas3.0", "oas3.1", "oas3.2":
				need = []string{"." + f + "."}
			case "oas":
				need = []string{".swagger2.", ".oas3.0.", ".oas3.1."}
			case "asyncapi":
				need = []string{".asyncapi2.", ".asyncapi3."}
			case "asyncapi2", "asyncapi3":
				need = []string{"." + f + "."}
			}
			for _, n := range need {
				if !strings.Contains(all, n) {
					t.Errorf("rule %s declares format %s but has no fixture named *%s*", rule.ID, f, n)
				}
			}
		}
	}
}
