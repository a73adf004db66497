package linter_test

import (
	"context"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// TestCachedRulesLintAlike: a linter whose rules come from the cache (no
// parsing, the compiler's rewriting and checking stages skipped, only the
// rules of an input's formats read) reports
// exactly what a linter compiled from source reports, on every fixture of
// every rule and on the smaller corpus specs, under the strict ruleset
// (every built-in rule).
func TestCachedRulesLintAlike(t *testing.T) {
	ctx := context.Background()
	cache := policy.OpenCache(t.TempDir())
	build := func(cache *policy.Cache) *linter.Linter {
		t.Helper()
		setup, err := rulesets.Load(rulesets.Options{Ruleset: "strict", NoSearch: true, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		l, err := linter.New(ctx, linter.Options{Registry: setup.Registry, Severities: setup.Severities,
			Loader: spec.NewLoader(spec.Options{}), Timeout: 5 * time.Minute, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	fromSource := build(nil)
	build(cache) // fills the cache
	inputs := concurrentInputs(t)
	// The first linter from the cache reads every rule's program, and
	// stores the program of each format's rules; the second reads those.
	for _, run := range []string{"every rule's program", "the programs of each format's rules"} {
		fromCache := build(cache)
		for _, name := range inputs {
			want := fromSource.LintFile(ctx, name)
			got := fromCache.LintFile(ctx, name)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the cached rules (%s) report\n%+v\nthe rules compiled from source report\n%+v", name, run, got, want)
			}
		}
	}
	t.Logf("%d inputs linted alike", len(inputs))
}

// TestWorkersLintAlike: rules evaluated on three cores at once, sharing
// their library values, report exactly what they report one at a time.
func TestWorkersLintAlike(t *testing.T) {
	ctx := context.Background()
	setup, err := rulesets.Load(rulesets.Options{Ruleset: "strict", NoSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := linter.New(ctx, linter.Options{Registry: setup.Registry, Severities: setup.Severities,
		Loader: spec.NewLoader(spec.Options{}), Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	lint := func(cores int, name string) linter.Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cores))
		return l.LintFile(ctx, name)
	}
	for _, name := range concurrentInputs(t) {
		want := lint(1, name)
		if got := lint(3, name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: three workers report\n%+v\none reports\n%+v", name, got, want)
		}
	}
}
