package linter_test

import (
	"context"
	"reflect"
	"runtime"
	"strings"
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
	build(cache) // fills the cache
	// The rules compiled from source report the reference results.
	inputs, fromSource := referenceResults(t)
	check := func(l *linter.Linter, name, run string) {
		t.Helper()
		want := fromSource[name]
		if got := l.LintFile(ctx, name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the cached rules (%s) report\n%+v\nthe rules compiled from source report\n%+v", name, run, got, want)
		}
	}
	// A linter of inputs of many formats runs them all with every rule's
	// program, and stores the program of each format's rules.
	fromCache := build(cache)
	for _, name := range inputs {
		check(fromCache, name, "every rule's program")
	}
	// A linter whose inputs are of one format reads the program of its
	// rules alone: one linter per format.
	byFormats := map[string][]string{}
	loader := spec.NewLoader(spec.Options{})
	for _, name := range inputs {
		if doc, err := loader.Load(ctx, name); err == nil {
			tags := strings.Join(doc.FormatTags(), ",")
			byFormats[tags] = append(byFormats[tags], name)
		}
	}
	for tags, names := range byFormats {
		l := build(cache)
		for _, name := range names {
			check(l, name, "the program of the rules of "+tags)
		}
	}
	t.Logf("%d inputs linted alike", len(inputs))
}

// TestWorkersLintAlike: rules evaluated on three cores at once, sharing
// their library values, report exactly what they report one at a time
// (the reference results).
func TestWorkersLintAlike(t *testing.T) {
	ctx := context.Background()
	names, want := referenceResults(t)
	l := strictLinter(t, 5*time.Minute, nil)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	for _, name := range names {
		if got := l.LintFile(ctx, name); !reflect.DeepEqual(got, want[name]) {
			t.Errorf("%s: three workers report\n%+v\none reports\n%+v", name, got, want[name])
		}
	}
}
