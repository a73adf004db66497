package linter

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/walk"
	"github.com/specgate/specgate/rulesets"
)

// FixtureResult is the outcome of one fixture: what was expected and not
// reported, and what was reported and not expected.
type FixtureResult struct {
	File       string
	Rules      []string // the rules under test
	Missing    []Want
	Unexpected []Want
	Err        error // the fixture could not be read or linted
}

// Failed reports whether the fixture did not match its expectations.
func (r FixtureResult) Failed() bool {
	return r.Err != nil || len(r.Missing) > 0 || len(r.Unexpected) > 0
}

// FindFixtures lists the spec fixtures under dir: the files IsFixture
// names in folders named testdata.
func FindFixtures(dir string) ([]string, error) {
	return walk.Files(dir, func(p string) bool {
		return IsFixture(p) && filepath.Base(filepath.Dir(p)) == "testdata"
	})
}

// CheckFixtures lints each fixture and compares the diagnostics with its
// `# want` annotations (or .want sidecar). A fixture in <rule-id>/testdata
// is linted with that rule alone; any other fixture with every custom rule
// the severities enable plus the rules its annotations name. Only the
// rules under test are compared, so a ruleset that also extends built-in
// rulesets does not disturb its own tests.
func CheckFixtures(ctx context.Context, opts Options, fixtures []string) []FixtureResult {
	custom := []string{}
	for _, id := range opts.Severities.Enabled() {
		if r := opts.Registry.Rule(id); r != nil && !r.Builtin {
			custom = append(custom, id)
		}
	}
	linters := map[string]*Linter{}
	out := make([]FixtureResult, 0, len(fixtures))
	for _, f := range fixtures {
		res := FixtureResult{File: f}
		wants, err := ReadWants(f)
		if err != nil {
			res.Err = err
			out = append(out, res)
			continue
		}
		if owner := filepath.Base(filepath.Dir(filepath.Dir(f))); opts.Registry.Rule(owner) != nil {
			res.Rules = []string{owner}
		} else {
			res.Rules = slices.Clone(custom)
			for _, w := range wants {
				if opts.Registry.Rule(w.Rule) != nil && !slices.Contains(res.Rules, w.Rule) {
					res.Rules = append(res.Rules, w.Rule)
				}
			}
			slices.Sort(res.Rules)
		}
		key := strings.Join(res.Rules, ",")
		l := linters[key]
		if l == nil {
			sevs := rulesets.Severities{}
			for _, id := range res.Rules {
				sevs[id] = opts.Severities[id]
				if sevs[id] == level.Off {
					sevs[id] = opts.Registry.Rule(id).Severity
				}
			}
			o := opts
			o.Severities, o.Overrides = sevs, nil
			if l, err = New(ctx, o); err != nil {
				res.Err = err
				out = append(out, res)
				continue
			}
			linters[key] = l
		}
		lr := l.LintFile(ctx, f)
		if lr.Err != nil && !slices.ContainsFunc(wants, func(w Want) bool { return w.Rule == LoadErrorRule }) {
			res.Err = lr.Err
		} else {
			res.Missing, res.Unexpected = Compare(lr, wants)
		}
		out = append(out, res)
	}
	return out
}
